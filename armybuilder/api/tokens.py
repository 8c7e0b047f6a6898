"""Personal API tokens for tools: see, create or rotate, and revoke your own, from a signed-in browser session.

Tools then send ``Authorization: Token <key>``. Rotating replaces the key, so
the old one stops working at once. Only session authentication is accepted
here: a leaked token cannot be used to mint its own replacement.
"""
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .openapi import errors
from .services import api_token_revoke, api_token_rotate


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(allow_null=True, help_text="Send as 'Authorization: Token <token>'; null when "
                                                             "you have none.")
    created = serializers.DateTimeField(allow_null=True)


@extend_schema(tags=["auth"])
class TokenApi(APIView):
    authentication_classes = [SessionAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your API token", responses={200: TokenOutputSerializer, **errors(403, no_401=True)})
    def get(self, request):
        token = Token.objects.filter(user=request.user).first()
        return Response(TokenOutputSerializer({"token": token.key if token else None,
                                               "created": token.created if token else None}).data)

    @extend_schema(summary="Create your API token, or replace it with a new one", request=None,
                   responses={201: TokenOutputSerializer, **errors(403, no_401=True)})
    def post(self, request):
        token = api_token_rotate(user=request.user)
        return Response(TokenOutputSerializer({"token": token.key, "created": token.created}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(summary="Revoke your API token", responses={204: OpenApiResponse(description="Revoked."),
                                                               **errors(403, no_401=True)})
    def delete(self, request):
        api_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
