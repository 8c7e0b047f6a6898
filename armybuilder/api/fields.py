"""Strict serializer fields: JSON types are checked, never coerced.

DRF's CharField turns 12 into "12", IntegerField turns "12" into 12 and
BooleanField turns "yes" into True. For an API with a published schema those
coercions hide client bugs, so these fields accept only the JSON type the
schema names and say precisely what they got instead.
"""
from collections.abc import Mapping

from rest_framework import serializers


def json_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__


class StrictCharField(serializers.CharField):
    default_error_messages = {"not_a_string": "Expected a string, got {kind}."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string", kind=json_type(data))
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    default_error_messages = {"not_an_integer": "Expected an integer, got {kind}."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            kind = "a fraction" if isinstance(data, float) else json_type(data)
            self.fail("not_an_integer", kind=kind)
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    default_error_messages = {"not_a_boolean": "Expected true or false, got {kind}."}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("not_a_boolean", kind=json_type(data))
        return data


class StrictChoiceField(serializers.ChoiceField):
    default_error_messages = {"not_a_string": "Expected a string, got {kind}."}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_a_string", kind=json_type(data))
        return super().to_internal_value(data)


class InputSerializer(serializers.Serializer):
    """A request body: a JSON object with only the documented fields."""

    default_error_messages = {"not_an_object": "Expected a JSON object, got {kind}."}

    def to_internal_value(self, data):
        if not isinstance(data, Mapping):
            raise serializers.ValidationError({"non_field_errors": [
                self.error_messages["not_an_object"].format(kind=json_type(data))]})
        errors = {key: ["Unknown field."] for key in data if key not in self.fields}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            errors.update(exc.detail)
            value = None
        if errors:
            raise serializers.ValidationError(errors)
        return value
