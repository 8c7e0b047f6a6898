"""Match-ups: two lists of the same system side by side, and every match-up tool of that system.

A match-up is its maker's alone: anyone else's answers 404, exactly like a missing one. It pairs one of
your lists with another of yours or with an opponent's shared list; while a list it names is no longer
yours or shared, the match-up shows of it only that it is private, and its tools answer 404 saying so.
The tools a system offers come from one table (armybuilder/lists/matchups/tools.py): each answers at
/api/v1/matchups/<id>/<slug>, and a tool the match-up's system does not have answers 404 naming the ones it
has. Hail of Fire's Force Parity Procedure is a sequence: POST …/parity starts it, PUT …/parity/ranking,
…/judgements and …/spending answer its steps, GET …/parity reads where it stands and its result.
"""
import uuid

from django.http import Http404
from django.urls import NoReverseMatch, reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from armybuilder.lists import matchups
from armybuilder.lists.matchups import selectors as matchup_selectors
from armybuilder.lists.selectors import army_lists_visible_to

from .fields import InputSerializer, StrictCharField, StrictChoiceField, StrictIntegerField
from .openapi import BODY_ERRORS, errors
from .pagination import Pagination

MAX_UNITS = 200  # more units than any force has; a longer ranking is refused before it is compared
MAX_POINTER = 40
SIDE = ["a", "b"]


# --- output ---------------------------------------------------------------------------------------

class UnitRowOutputSerializer(serializers.Serializer):
    pointer = serializers.CharField(help_text="The unit's JSON pointer in its list's document.")
    name = serializers.CharField()
    teams = serializers.IntegerField()


class MatchupSideLabelOutputSerializer(serializers.Serializer):
    readable = serializers.BooleanField(help_text="False once the list is neither yours nor shared: then only "
                                                  "that it is private is shown.")
    name = serializers.CharField()
    book = serializers.CharField()


class MatchupSideOutputSerializer(MatchupSideLabelOutputSerializer):
    letter = serializers.ChoiceField(choices=["A", "B"])
    list_id = serializers.UUIDField(allow_null=True, help_text="The list's id when it is one of yours.")
    share_token = serializers.UUIDField(allow_null=True, help_text="Its share token when it is someone else's "
                                                                   "shared list (read it at /api/v1/shared/<token>/).")
    nation = serializers.CharField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    points_limit = serializers.IntegerField(allow_null=True)
    legal = serializers.BooleanField(allow_null=True)
    units = UnitRowOutputSerializer(many=True, allow_null=True)
    figures = serializers.JSONField(allow_null=True, help_text="The list's own derived figures (its check report's).")


class MatchupToolOutputSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    steps = serializers.BooleanField(help_text="True for a procedure answered step by step (Hail of Fire's parity).")
    url = serializers.CharField(allow_null=True)


class MatchupOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    system = serializers.CharField(help_text="Game system code, e.g. fow4.")
    a = MatchupSideLabelOutputSerializer()
    b = MatchupSideLabelOutputSerializer()
    url = serializers.CharField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class MatchupDetailOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    system = serializers.CharField()
    system_name = serializers.CharField()
    a = MatchupSideOutputSerializer()
    b = MatchupSideOutputSerializer()
    tools = MatchupToolOutputSerializer(many=True, help_text="The match-up tools of its system.")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()


class FowUnitOutputSerializer(serializers.Serializer):
    pointer = serializers.CharField()
    name = serializers.CharField()
    points = serializers.IntegerField()
    teams = serializers.IntegerField()


class FowFormationOutputSerializer(serializers.Serializer):
    pointer = serializers.CharField(help_text="/formations/<i>, or /support for the force's support.")
    name = serializers.CharField()
    allied = serializers.BooleanField()
    points = serializers.IntegerField()
    units = FowUnitOutputSerializer(many=True)


class FowSideOutputSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    points_limit = serializers.IntegerField(allow_null=True)
    reserves_on_table_max = serializers.IntegerField(allow_null=True, help_text="The most points it may have on "
                                                                                "the table in a Reserves mission.")
    formations = serializers.IntegerField(allow_null=True)
    game_units = serializers.IntegerField(allow_null=True)
    units_bought = serializers.IntegerField(allow_null=True)
    teams = serializers.IntegerField(allow_null=True)
    support_points = serializers.IntegerField()
    card_points = serializers.IntegerField()
    forces = FowFormationOutputSerializer(many=True, help_text="Each formation, then the support, in list order.")


class FowSidesOutputSerializer(serializers.Serializer):
    a = FowSideOutputSerializer()
    b = FowSideOutputSerializer()


class FowDifferenceOutputSerializer(serializers.Serializer):
    points = serializers.IntegerField()
    formations = serializers.IntegerField()
    units_bought = serializers.IntegerField()
    game_units = serializers.IntegerField()
    teams = serializers.IntegerField()
    reserves_on_table_max = serializers.IntegerField()
    support_points = serializers.IntegerField()
    card_points = serializers.IntegerField()


class FowComparisonOutputSerializer(serializers.Serializer):
    sides = FowSidesOutputSerializer()
    more_on_table_in_reserves = serializers.ChoiceField(choices=SIDE, allow_null=True)
    difference = FowDifferenceOutputSerializer(help_text="Force A's figures less force B's.")


class DiceSideOutputSerializer(serializers.Serializer):
    nation = serializers.CharField()
    nation_modifier = serializers.IntegerField()
    all_elite_bonus = serializers.IntegerField()
    dice = serializers.IntegerField()
    working = serializers.CharField(help_text="How the number was reached, in words.")


class DiceSidesOutputSerializer(serializers.Serializer):
    a = DiceSideOutputSerializer()
    b = DiceSideOutputSerializer()


class UnitCountOutputSerializer(serializers.Serializer):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class ActivationDiceOutputSerializer(serializers.Serializer):
    units = UnitCountOutputSerializer()
    base = serializers.IntegerField(help_text="The larger force's units less 2.")
    sides = DiceSidesOutputSerializer()
    fewer_dice = serializers.ChoiceField(choices=SIDE, allow_null=True,
                                         help_text="This side's player rolls on the Tactical Advantages table.")


class SetupCardOutputSerializer(serializers.Serializer):
    letter = serializers.CharField()
    name = serializers.CharField()
    pointer = serializers.CharField()


class UnletteredOutputSerializer(serializers.Serializer):
    name = serializers.CharField()
    pointer = serializers.CharField()


class SetupSideOutputSerializer(serializers.Serializer):
    cards = SetupCardOutputSerializer(many=True, help_text="One per set-up letter, by letter.")
    real_cards = serializers.IntegerField()
    dummy_cards = serializers.IntegerField()
    outflanking = serializers.IntegerField(help_text="Cards held back to outflank (which, and where, is secret).")
    face_down_on_table = serializers.IntegerField(help_text="Real cards not outflanking, plus the dummies.")
    without_letter = UnletteredOutputSerializer(many=True, help_text="Units on no card yet.")
    repeated_letters = serializers.ListField(child=serializers.CharField())


class SetupSidesOutputSerializer(serializers.Serializer):
    a = SetupSideOutputSerializer()
    b = SetupSideOutputSerializer()


class SetupOutputSerializer(serializers.Serializer):
    sides = SetupSidesOutputSerializer()
    more_cards_on_table = serializers.ChoiceField(choices=SIDE, allow_null=True)
    card_spacing_inches = serializers.IntegerField(help_text="No card within this distance of an enemy card.")
    max_outflanking = serializers.IntegerField()


class HandSideOutputSerializer(serializers.Serializer):
    nation = serializers.CharField()
    base = serializers.IntegerField()
    units = serializers.IntegerField()
    unit_limit = serializers.IntegerField(allow_null=True)
    first_hand = serializers.IntegerField(help_text="The base + 1 per unit.")
    first_hand_off_table = serializers.IntegerField(help_text="With off-table units' cards held back until called.")
    off_table_units = serializers.IntegerField()
    wait_actions = serializers.IntegerField()


class HandSidesOutputSerializer(serializers.Serializer):
    a = HandSideOutputSerializer()
    b = HandSideOutputSerializer()


class OrderCardsOutputSerializer(serializers.Serializer):
    sides = HandSidesOutputSerializer()
    more_cards = serializers.ChoiceField(choices=SIDE, allow_null=True)
    difference = serializers.IntegerField()


class ParityPairOutputSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    unit_a = serializers.CharField()
    unit_b = serializers.CharField()
    threat = serializers.ChoiceField(choices=SIDE, allow_null=True)
    heavy_hitter = serializers.ChoiceField(choices=SIDE, allow_null=True)
    size = serializers.ChoiceField(choices=SIDE, allow_null=True)
    points_a = serializers.IntegerField()
    points_b = serializers.IntegerField()


class SpendingOutputSerializer(serializers.Serializer):
    break_points = serializers.IntegerField()
    hero_points = serializers.IntegerField()
    reductions = serializers.IntegerField()


class SuggestionOutputSerializer(serializers.Serializer):
    size = serializers.ChoiceField(choices=SIDE, allow_null=True, help_text="The side with more teams.")


class ParityResultOutputSerializer(serializers.Serializer):
    pairs = ParityPairOutputSerializer(many=True)
    unpaired_a = serializers.ListField(child=serializers.CharField())
    unpaired_b = serializers.ListField(child=serializers.CharField())
    total_a = serializers.IntegerField()
    total_b = serializers.IntegerField()
    stronger = serializers.ChoiceField(choices=SIDE, allow_null=True, help_text="The side taking Penalty Points.")
    penalty_points = serializers.IntegerField()
    spending = SpendingOutputSerializer(allow_null=True)
    suggestions = SuggestionOutputSerializer(many=True)


class UnitsPairOutputSerializer(serializers.Serializer):
    a = UnitRowOutputSerializer(many=True)
    b = UnitRowOutputSerializer(many=True)


class ParityOutputSerializer(serializers.Serializer):
    units = UnitsPairOutputSerializer(help_text="Each side's units in list order.")
    ranked = serializers.BooleanField()
    judged = serializers.BooleanField()
    next_step = serializers.ChoiceField(choices=["ranking", "judgements", "spending", "done"])
    ranking_a = serializers.ListField(child=serializers.CharField(), allow_null=True,
                                      help_text="Force A's units as B's player ranked them, strongest first.")
    ranking_b = serializers.ListField(child=serializers.CharField(), allow_null=True)
    result = ParityResultOutputSerializer(allow_null=True, help_text="Null until both rankings are given.")
    answers_problem = serializers.CharField(allow_blank=True, help_text="Why answers saved before were set aside "
                                                                        "(the lists changed since); empty if none.")


# --- input ----------------------------------------------------------------------------------------

def _uuid(value: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise serializers.ValidationError("not a list id (a UUID)") from None


class MatchupCreateInputSerializer(InputSerializer):
    list_a = StrictCharField(max_length=36, help_text="Force A: the id of one of your lists.")
    list_b = StrictCharField(required=False, max_length=36, help_text="Force B: the id of another of your lists.")
    opponent = StrictCharField(required=False, max_length=500,
                               help_text="Force B: an opponent's shared list, by its share link or share token.")

    def validate(self, data):
        if ("list_b" in data) == ("opponent" in data):
            raise serializers.ValidationError("Give force B as list_b (one of your lists) or opponent (a share link "
                                              "or token), one of the two.")
        yours = army_lists_visible_to(self.context["request"].user).select_related("system", "handbook")
        for key in ("list_a", "list_b"):
            if key in data:
                found = yours.filter(public_id=_uuid(data[key])).first()
                if found is None:
                    raise serializers.ValidationError({key: ["None of your lists has this id."]})
                data[key] = found
        if "opponent" in data:
            found = matchup_selectors.army_list_from_share_link(data["opponent"])
            if found is None:
                raise serializers.ValidationError({"opponent": [
                    "No shared list at that link or token: check that it was copied whole (a list made private "
                    "is no longer reachable)."]})
            data["list_b"] = found
        return data

    def validate_list_a(self, value):
        _uuid(value)
        return value

    def validate_list_b(self, value):
        _uuid(value)
        return value


class RankingInputSerializer(InputSerializer):
    ranking_a = serializers.ListField(child=StrictCharField(max_length=MAX_POINTER), max_length=MAX_UNITS,
                                      help_text="Force A's unit pointers as B's player ranks them, strongest first.")
    ranking_b = serializers.ListField(child=StrictCharField(max_length=MAX_POINTER), max_length=MAX_UNITS,
                                      help_text="Force B's unit pointers as A's player ranks them.")


class JudgementInputSerializer(InputSerializer):
    threat = StrictChoiceField(choices=SIDE, required=False, allow_null=True,
                               help_text="The side whose unit is more threatening (1 point); null for neither.")
    heavy_hitter = StrictChoiceField(choices=SIDE, required=False, allow_null=True, help_text="+1.")
    size = StrictChoiceField(choices=SIDE, required=False, allow_null=True, help_text="+1.")


class JudgementsInputSerializer(InputSerializer):
    judgements = serializers.ListField(child=JudgementInputSerializer(), max_length=MAX_UNITS,
                                       help_text="One per pair, in rank order.")


class SpendingInputSerializer(InputSerializer):
    break_points = StrictIntegerField(required=False, default=0, min_value=0, max_value=999,
                                      help_text="The stronger side's own starting Break Points.")
    hero_points = StrictIntegerField(required=False, default=0, min_value=0, max_value=999,
                                     help_text="Hero Points given to the opponent.")
    reductions = StrictIntegerField(required=False, default=0, min_value=0, max_value=999,
                                    help_text="Parts of its own force the stronger side leaves at home.")


# --- views ----------------------------------------------------------------------------------------

def _tool_url(matchup, tool) -> str | None:
    try:
        return reverse(f"api:matchup-{tool.slug}", kwargs={"matchup_id": matchup.public_id})
    except NoReverseMatch:
        return None


def _summary(matchup, user) -> dict:
    labels = matchup_selectors.matchup_side_labels(matchup, user=user, session_key=None)
    return {"id": matchup.public_id, "system": matchup.list_a.system.code,
            "a": {"readable": labels["readable_a"], "name": labels["name_a"], "book": labels["book_a"]},
            "b": {"readable": labels["readable_b"], "name": labels["name_b"], "book": labels["book_b"]},
            "url": reverse("api:matchup-detail", kwargs={"matchup_id": matchup.public_id}),
            "created_at": matchup.created_at, "updated_at": matchup.updated_at}


def _detail(reading, user) -> dict:
    matchup = reading.matchup
    out = _summary(matchup, user)
    out.pop("url")
    out["system_name"] = matchup.list_a.system.name
    for key, letter in matchup_selectors.SIDES:
        army_list, side = getattr(matchup, f"list_{key}"), out[key]
        side["letter"] = letter
        own = matchup_selectors.army_list_is_own(army_list, user=user, session_key=None)
        side["list_id"] = army_list.public_id if own else None
        side["share_token"] = army_list.share_token if side["readable"] and not own else None
        figures = (reading.figures or {}).get(key) if side["readable"] else None
        for field in ("nation", "points", "points_limit", "legal", "units", "figures"):
            side[field] = figures.get(field) if figures else None
    out["tools"] = [{"slug": tool.slug, "name": tool.name, "description": tool.description, "steps": tool.wizard,
                     "url": _tool_url(matchup, tool)} for tool in reading.tools]
    return out


class MatchupApi(APIView):
    """Needs a signed-in user (token or session). Someone else's match-up answers 404, like a missing one."""

    permission_classes = [IsAuthenticated]

    def matchup(self):
        return matchups.matchup_get_for_user(user=self.request.user, public_id=self.kwargs["matchup_id"])

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data, context={"request": self.request})
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def readable(self, matchup) -> None:
        """404 while a side's list is no longer the viewer's to read: its figures would show it."""
        unreadable = matchup_selectors.matchup_unreadable_sides(matchup, user=self.request.user, session_key=None)
        if unreadable:
            raise Http404(" and ".join(f"Force {letter}'s" for letter in unreadable) + " list is no longer shared "
                          "with you: its owner made it private or deleted the link. Make a new match-up with a "
                          "new share link.")

    def reading(self, matchup, slugs=None):
        self.readable(matchup)
        return matchups.matchup_read(matchup=matchup, user=self.request.user, slugs=slugs)


@extend_schema(tags=["match-ups"])
class MatchupCollectionApi(MatchupApi):
    pagination_class = Pagination

    @extend_schema(summary="Your match-ups", responses={200: MatchupOutputSerializer(many=True), **errors(400, 404)})
    def get(self, request):
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            matchups.matchups_visible_to(request.user)
            .select_related("list_a__system", "list_a__handbook", "list_b__handbook").order_by("-updated_at", "pk"),
            request, view=self)
        return paginator.get_paginated_response(
            MatchupOutputSerializer([_summary(m, request.user) for m in page], many=True).data)

    @extend_schema(summary="Make a match-up of two lists of the same system",
                   description="Force A is one of your lists; force B another of yours (list_b) or an opponent's "
                               "shared list (opponent: its share link or token).",
                   request=MatchupCreateInputSerializer,
                   responses={201: MatchupDetailOutputSerializer, **errors(*BODY_ERRORS, 403)})
    def post(self, request):
        data = self.valid(MatchupCreateInputSerializer)
        matchup = matchups.matchup_create(list_a=data["list_a"], list_b=data["list_b"], owner=request.user)
        matchup = matchups.matchup_get_for_user(user=request.user, public_id=matchup.public_id)
        reading = matchups.matchup_read(matchup=matchup, user=request.user, slugs=())
        response = Response(MatchupDetailOutputSerializer(_detail(reading, request.user)).data,
                            status=status.HTTP_201_CREATED)
        response["Location"] = reverse("api:matchup-detail", kwargs={"matchup_id": matchup.public_id})
        return response


@extend_schema(tags=["match-ups"])
class MatchupDetailApi(MatchupApi):
    @extend_schema(summary="A match-up: both sides as you may see them, and its system's tools",
                   responses={200: MatchupDetailOutputSerializer, **errors(404)})
    def get(self, request, matchup_id):
        reading = matchups.matchup_read(matchup=self.matchup(), user=request.user, slugs=())
        return Response(MatchupDetailOutputSerializer(_detail(reading, request.user)).data)

    @extend_schema(summary="Delete a match-up (both lists stay)",
                   responses={204: OpenApiResponse(description="Deleted."), **errors(403, 404)})
    def delete(self, request, matchup_id):
        matchups.matchup_delete(matchup=self.matchup())
        return Response(status=status.HTTP_204_NO_CONTENT)


class MatchupToolApi(MatchupApi):
    """One tool of the table, by its slug; 404 when the match-up's system has no such tool."""

    slug = ""
    output_serializer = None

    def get(self, request, matchup_id):
        matchup = self.matchup()
        tool = matchups.matchup_tool_get(matchup=matchup, slug=self.slug)
        reading = self.reading(matchup, slugs=(tool.slug,))
        return Response(self.output_serializer(reading.figures[tool.slug]).data)


@extend_schema(tags=["match-ups"])
class FowComparisonApi(MatchupToolApi):
    slug, output_serializer = "fow-comparison", FowComparisonOutputSerializer

    @extend_schema(summary="Flames of War: both forces side by side, and the most each may have on the table in a "
                           "Reserves mission", responses={200: FowComparisonOutputSerializer, **errors(404)})
    def get(self, request, matchup_id):
        return super().get(request, matchup_id)


@extend_schema(tags=["match-ups"])
class ActivationDiceApi(MatchupToolApi):
    slug, output_serializer = "activation-dice", ActivationDiceOutputSerializer

    @extend_schema(summary="War Ain't Fair: each side's activation dice, with the working",
                   responses={200: ActivationDiceOutputSerializer, **errors(404)})
    def get(self, request, matchup_id):
        return super().get(request, matchup_id)


@extend_schema(tags=["match-ups"])
class SetupApi(MatchupToolApi):
    slug, output_serializer = "setup", SetupOutputSerializer

    @extend_schema(summary="War Ain't Fair: each side's face-down set-up cards (letters and dummies)",
                   responses={200: SetupOutputSerializer, **errors(404)})
    def get(self, request, matchup_id):
        return super().get(request, matchup_id)


@extend_schema(tags=["match-ups"])
class OrderCardsApi(MatchupToolApi):
    slug, output_serializer = "order-cards", OrderCardsOutputSerializer

    @extend_schema(summary="Operation WW2: each player's first hand of order cards",
                   responses={200: OrderCardsOutputSerializer, **errors(404)})
    def get(self, request, matchup_id):
        return super().get(request, matchup_id)


class ParityApi(MatchupApi):
    """Hail of Fire's Force Parity Procedure, answered step by step (the answers are kept on the match-up)."""

    def wizard(self):
        matchup = self.matchup()
        tool = matchups.matchup_wizard_get(matchup=matchup)
        self.readable(matchup)
        return matchup, tool

    def state(self, matchup, tool, figures, answers_problem: str = "") -> Response:
        return Response(ParityOutputSerializer(matchup_selectors.matchup_wizard_state(
            figures=figures, answers=matchup.answers or {}, tool=tool, answers_problem=answers_problem)).data)


PARITY_ERRORS = errors(*BODY_ERRORS, 403, 404)


@extend_schema(tags=["match-ups"])
class ParityStateApi(ParityApi):
    @extend_schema(summary="Hail of Fire: where the Force Parity Procedure stands, and its result so far",
                   responses={200: ParityOutputSerializer, **errors(404)})
    def get(self, request, matchup_id):
        matchup, tool = self.wizard()
        reading = matchups.matchup_read(matchup=matchup, user=request.user, slugs=(tool.slug,))
        return self.state(matchup, tool, reading.figures, reading.answers_problem)

    @extend_schema(summary="Hail of Fire: start the Force Parity Procedure afresh (drops every answer given)",
                   request=None, responses={200: ParityOutputSerializer, **errors(403, 404)})
    def post(self, request, matchup_id):
        matchup, tool = self.wizard()
        return self.state(matchup, tool, matchups.matchup_parity_start(matchup=matchup))


@extend_schema(tags=["match-ups"])
class ParityRankingApi(ParityApi):
    @extend_schema(summary="Hail of Fire, step 1: each player ranks the opponent's units",
                   description="New rankings pair the units afresh: the judgements start again, with the size "
                               "advantage pre-selected from the team counts. The same rankings again keep them.",
                   request=RankingInputSerializer, responses={200: ParityOutputSerializer, **PARITY_ERRORS})
    def put(self, request, matchup_id):
        matchup, tool = self.wizard()
        data = self.valid(RankingInputSerializer)
        figures = matchups.matchup_parity_rank(matchup=matchup, ranking_a=data["ranking_a"],
                                               ranking_b=data["ranking_b"])
        return self.state(matchup, tool, figures)


@extend_schema(tags=["match-ups"])
class ParityJudgementsApi(ParityApi):
    @extend_schema(summary="Hail of Fire, step 2: judge each pair (threat, heavy hitters, size)",
                   description="A split of Penalty Points given before is kept while it still adds up.",
                   request=JudgementsInputSerializer, responses={200: ParityOutputSerializer, **PARITY_ERRORS})
    def put(self, request, matchup_id):
        matchup, tool = self.wizard()
        data = self.valid(JudgementsInputSerializer)
        figures = matchups.matchup_parity_judge(matchup=matchup, judgements=[dict(j) for j in data["judgements"]])
        return self.state(matchup, tool, figures)


@extend_schema(tags=["match-ups"])
class ParitySpendingApi(ParityApi):
    @extend_schema(summary="Hail of Fire, step 3: how the stronger side spends its Penalty Points",
                   description="The three must add up to the Penalty Points.",
                   request=SpendingInputSerializer, responses={200: ParityOutputSerializer, **PARITY_ERRORS})
    def put(self, request, matchup_id):
        matchup, tool = self.wizard()
        data = self.valid(SpendingInputSerializer)
        figures = matchups.matchup_parity_spend(matchup=matchup, spending=dict(data))
        return self.state(matchup, tool, figures)
