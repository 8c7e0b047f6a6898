"""Old tokens were stored in plain text (rest_framework.authtoken): keep them working, stored as hashes."""
import hashlib

from django.db import migrations


def hash_plain_tokens(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("ab_api", "ApiToken")
    for token in Token.objects.all():
        ApiToken.objects.update_or_create(user_id=token.user_id, defaults={
            "key_hash": hashlib.sha256(token.key.encode("utf-8")).hexdigest(), "prefix": token.key[:8]})
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("ab_api", "0001_api_tokens"), ("authtoken", "0004_alter_tokenproxy_options")]

    operations = [migrations.RunPython(hash_plain_tokens, migrations.RunPython.noop)]
