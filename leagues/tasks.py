from celery import shared_task

from leagues import services


@shared_task(name="leagues.close_ended_weeks", ignore_result=True)
def close_ended_weeks() -> None:
    """Close every cohort whose week has ended in all its members' zones and place those who
    waited for it (`services.close_ended_cohorts`). Idempotent and resumable."""
    services.close_ended_cohorts()
