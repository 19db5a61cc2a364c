"""Writes of the exercises app, one module a job:

- `content`: exercises from curriculum files (upsert by slug)
- `catalogue`: loading the reference catalogue of model architectures
- `submissions`: accepting a learner's table
- `queueing`: publishing grading tasks, and the sweep that publishes again what nobody grades
- `pipeline`: grading a submission (claim, grade, pay, notify), alone or with a backlog
- `grading_cache`: what a grading process keeps between grades (exercises, the catalogue)

Reads are in `exercises.selectors`.
"""
