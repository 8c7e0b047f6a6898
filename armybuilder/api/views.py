from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt  # it changes nothing; without this a POST to a wrong URL would get Django's HTML CSRF page
def not_found(request, *args, **kwargs):
    """Anything under /api/ that is no endpoint: a JSON 404 like every other API error."""
    return JsonResponse({"detail": f"No API endpoint at {request.path}.", "problems": []}, status=404)
