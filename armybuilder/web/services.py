"""Writes the browser builder needs beyond armybuilder.lists.services."""
from django.db import IntegrityError, transaction

from armybuilder.lists import services as list_services
from armybuilder.lists.models import ArmyList, ListUnit, ListUpgrade, Matchup

from .models import PlayerProfile


def army_lists_claim_for_user(*, user, session_key: str | None) -> int:
    """Give a visitor's session lists to the account they just signed up or logged in with.

    Returns how many lists were claimed. Lists of other sessions are never touched.
    """
    if not session_key or user is None or not user.is_authenticated:
        return 0
    return ArmyList.objects.filter(owner__isnull=True, session_key=session_key).update(owner=user, session_key="")


@transaction.atomic
def army_list_choose_upgrade(*, army_list: ArmyList, list_unit: ListUnit, upgrade_code: str, quantity: int,
                             replace_in_group: bool = False, expected_version: int | None = None) -> None:
    """Set one option of a unit; with ``replace_in_group`` the other options of its group are dropped first.

    That is how a one-pick group (a choice of main gun, say) behaves like a radio button: picking a
    new option swaps it in, in one transaction and one version step as far as the caller can tell.
    """
    if replace_in_group and quantity > 0:
        group_code = upgrade_code.partition("/")[0]
        others = (ListUpgrade.objects.filter(list_unit=list_unit, upgrade__group__code=group_code)
                  .exclude(upgrade__code=upgrade_code.partition("/")[2])
                  .values_list("upgrade__group__code", "upgrade__code"))
        for group, code in list(others):
            list_services.army_list_set_upgrade(army_list=army_list, list_unit=list_unit,
                                                upgrade_code=f"{group}/{code}", quantity=0,
                                                expected_version=expected_version)
            expected_version = army_list.version
    list_services.army_list_set_upgrade(army_list=army_list, list_unit=list_unit, upgrade_code=upgrade_code,
                                        quantity=quantity, expected_version=expected_version)


# -- accounts ----------------------------------------------------------------------------------------------------

class UsernameTaken(Exception):
    pass


def user_sign_up(*, form) -> object:
    """Save a valid sign-up form. Two sign-ups with one name at the same moment both pass the form's
    uniqueness check; the database's unique constraint decides, and the loser gets UsernameTaken (not a 500)."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        raise UsernameTaken() from None


def player_display_name(user) -> str:
    """The name a player chose to show on shared lists; empty (show none) when they chose none."""
    if user is None:
        return ""
    return PlayerProfile.objects.filter(user=user).values_list("display_name", flat=True).first() or ""


def player_set_display_name(*, user, display_name: str) -> None:
    PlayerProfile.objects.update_or_create(user=user, defaults={"display_name": display_name.strip()[:60]})


@transaction.atomic
def user_delete_account(*, user) -> int:
    """Delete the account with everything it owns: lists (and their units, cards, share links), match-ups,
    the API token and the profile. Returns how many lists went with it."""
    lists = ArmyList.objects.filter(owner=user).count()
    ArmyList.objects.filter(owner=user).delete()
    Matchup.objects.filter(owner=user).delete()
    user.delete()
    return lists
