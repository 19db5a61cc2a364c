# The notifications and e-mail deliveries moved here from the community app. Their tables were
# created by community's migrations and keep their names: this migration changes Django's
# state only (community 0006 removes them from community's state), no data moves.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('community', '0005_delivery_failed_at'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='EmailDelivery',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=200, unique=True)),
                        ('to_address', models.EmailField(max_length=254)),
                        ('subject', models.CharField(max_length=200)),
                        ('text_body', models.TextField()),
                        ('html_body', models.TextField(blank=True)),
                        ('unsubscribe_url', models.CharField(blank=True, max_length=1000)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('claimed_until', models.DateTimeField(blank=True, null=True)),
                        ('attempts', models.PositiveIntegerField(default=0)),
                        ('last_error', models.CharField(blank=True, max_length=500)),
                        ('sent_at', models.DateTimeField(blank=True, null=True)),
                        ('failed_at', models.DateTimeField(blank=True, null=True)),
                        ('recipient', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='email_deliveries', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name_plural': 'e-mail deliveries',
                        'db_table': 'community_emaildelivery',
                        'ordering': ('-created_at', '-id'),
                        'indexes': [models.Index(condition=models.Q(('sent_at__isnull', True)), fields=['created_at'], name='community_delivery_unsent_idx')],
                    },
                ),
                migrations.CreateModel(
                    name='Notification',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('kind', models.CharField(max_length=40)),
                        ('title', models.CharField(max_length=200)),
                        ('body', models.TextField(blank=True)),
                        ('url', models.CharField(blank=True, max_length=500)),
                        ('data', models.JSONField(blank=True, default=dict)),
                        ('dedupe_key', models.CharField(max_length=200)),
                        ('created_at', models.DateTimeField(auto_now_add=True)),
                        ('read_at', models.DateTimeField(blank=True, null=True)),
                        ('email_state', models.CharField(choices=[('none', 'In-app only'), ('pending', 'Waiting for the next e-mail'), ('batched', 'In an e-mail'), ('skipped', 'Not e-mailed (the learner turned e-mails off)')], default='none', max_length=10)),
                        ('email_delivery', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='notifications', to='notifications.emaildelivery')),
                        ('recipient', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'db_table': 'community_notification',
                        'ordering': ('-created_at', '-id'),
                        'indexes': [models.Index(fields=['recipient', '-created_at', '-id'], name='community_n_recipie_96cedd_idx'), models.Index(condition=models.Q(('read_at__isnull', True)), fields=['recipient'], name='community_notif_unread_idx'), models.Index(condition=models.Q(('email_state', 'pending')), fields=['recipient', 'id'], name='community_notif_pending_idx')],
                        'constraints': [models.UniqueConstraint(fields=('recipient', 'dedupe_key'), name='community_notification_dedupe')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
