"""The engine's report as the API shows it (Report.as_dict(), field for field)."""
from rest_framework import serializers


class RuleOutputSerializer(serializers.Serializer):
    system = serializers.CharField()
    name = serializers.CharField()
    where = serializers.CharField(allow_blank=True)


class IssueOutputSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Stable issue code, e.g. fow.black_box.missing; docs/issue-codes.md "
                                           "lists every one with its severity, rule and wording.")
    severity = serializers.ChoiceField(choices=["error", "warning"])
    message = serializers.CharField()
    pointer = serializers.CharField(allow_blank=True, help_text="JSON pointer into the list document.")
    rule = RuleOutputSerializer(allow_null=True)
    fix = serializers.CharField(allow_null=True)
    box = serializers.CharField(allow_null=True)


class ReportOutputSerializer(serializers.Serializer):
    system = serializers.CharField()
    legal = serializers.BooleanField(help_text="True when the report has no errors (warnings allowed).")
    points_limit = serializers.IntegerField(allow_null=True)
    total_points = serializers.IntegerField()
    unit_points = serializers.DictField(child=serializers.IntegerField(), help_text="Unit pointer -> points.")
    formation_points = serializers.DictField(child=serializers.IntegerField(),
                                             help_text="Formation pointer -> points of its units.")
    support_points = serializers.IntegerField()
    card_points = serializers.IntegerField()
    figures = serializers.JSONField(help_text="Derived figures (formations, game units, reserves limit …).")
    issues = IssueOutputSerializer(many=True)


def report_data(report) -> dict:
    return ReportOutputSerializer(report.as_dict()).data
