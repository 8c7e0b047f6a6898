"""Personal API tokens for tools: see, create or rotate, and revoke your own, from a signed-in browser session.

Tools then send ``Authorization: Token <key>``. The key is shown once, in the answer
that makes it: only its hash is stored, so it cannot be shown again (make a new one
if it is lost). Rotating replaces the key, so the old one stops working at once. A
token may be given an expiry. Only session authentication is accepted here: a leaked
token cannot be used to mint its own replacement.
"""
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .fields import InputSerializer, StrictIntegerField
from .models import ApiToken
from .openapi import BODY_ERRORS, errors
from .services import MAX_EXPIRY_DAYS, api_token_revoke, api_token_rotate


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(allow_null=True, help_text="Send as 'Authorization: Token <token>'. Only in the "
                                                             "answer that makes it; null otherwise.")
    prefix = serializers.CharField(allow_null=True, help_text="The first characters of your token; null when you "
                                                              "have none.")
    created = serializers.DateTimeField(allow_null=True)
    expires = serializers.DateTimeField(allow_null=True, help_text="When the token stops working; null: never.")


class TokenCreateInputSerializer(InputSerializer):
    expires_in_days = StrictIntegerField(required=False, allow_null=True, min_value=1, max_value=MAX_EXPIRY_DAYS,
                                         help_text="Days until the token stops working; leave out for none.")


def _out(token: ApiToken | None, key: str | None = None) -> dict:
    return TokenOutputSerializer({"token": key, "prefix": token.prefix if token else None,
                                  "created": token.created if token else None,
                                  "expires": token.expires_at if token else None}).data


@extend_schema(tags=["auth"])
class TokenApi(APIView):
    authentication_classes = [SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your API token (its prefix and dates; the key itself is shown only once)",
                   responses={200: TokenOutputSerializer, **errors(403, no_401=True)})
    def get(self, request):
        return Response(_out(ApiToken.objects.filter(user=request.user).first()))

    @extend_schema(summary="Create your API token, or replace it with a new one", request=TokenCreateInputSerializer,
                   responses={201: TokenOutputSerializer, **errors(*BODY_ERRORS, 403, no_401=True)})
    def post(self, request):
        data = request.data if request.data not in (None, b"", "") else {}
        serializer = TokenCreateInputSerializer(data=data)
        serializer.is_valid(raise_exception=True)
        token, key = api_token_rotate(user=request.user,
                                      expires_in_days=serializer.validated_data.get("expires_in_days"))
        return Response(_out(token, key), status=status.HTTP_201_CREATED)

    @extend_schema(summary="Revoke your API token", responses={204: OpenApiResponse(description="Revoked."),
                                                               **errors(403, no_401=True)})
    def delete(self, request):
        api_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
