from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """?page=2&page_size=100; at most 200 per page. A page past the end answers 404; a page_size that is not
    a whole number from 1 to 200 answers 400 (DRF would silently fall back to the default)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise ValidationError({self.page_size_query_param: [
                f"Expected a whole number from 1 to {self.max_page_size}, got {raw[:20]!r}."]})
        return int(raw)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": self.max_page_size})
            if parameter["name"] == self.page_query_param:
                parameter["schema"].update({"minimum": 1})
        return parameters
