"""Following a lead in Tractor (docs/RULES-TRACTOR.md T7, T11.2, T16.1): the duties, the
worked examples X15, the legal-follow generator checked against a brute-force reading of
T7 over every subset of small hands, and a legal follow always existing (T7.5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.games.tractor.follows import FollowProblem, follow_problem, hosting_follow, legal_follows, only_follow
from shuangkou.games.tractor.formats import Lead, counted
from shuangkou.games.tractor.order import FACES, TRUMP, Order, faces_of, faces_text, rank_index

TEN_SPADES = Order.of(rank_index("10"), 0)


def lead_of(text: str, order: Order = TEN_SPADES) -> Lead:
    return Lead.of(counted(faces_of(text)), order)


def legal(hand: str, play: str, lead: str, partial: bool = True, order: Order = TEN_SPADES) -> bool:
    problem = follow_problem(counted(faces_of(hand)), counted(faces_of(play)), lead_of(lead, order), order, partial)
    return problem is None


def text(counts: dict[int, int]) -> str:
    return faces_text(sorted(Counter(counts).elements()))


# ---------------------------------------------------------------------------
# The duties, by the rule book's examples


X15_LEAD = "QH QH JH JH 9H 9H"
X15_HAND = "8H 8H 7H 7H 5H 5H 3H 2H 4S 6C"


def problem(hand: str, play: str, lead: str, partial: bool = True) -> FollowProblem | None:
    return follow_problem(counted(faces_of(hand)), counted(faces_of(play)), lead_of(lead), TEN_SPADES, partial)


def test_T7_1_to_T7_4_X15_a_refused_follow_names_its_duty_and_counts() -> None:
    """T7.1–T7.4 (X15): the first duty a follow breaks, with what it needs and what it
    gives (the page words a refusal from them)."""
    assert problem(X15_HAND, "8H 8H 7H 7H 5H", X15_LEAD) == FollowProblem("T7.1", 6, 5)
    assert problem("AH KH 6H 3S 4S 5S AD", "AH KH 3S 4S 5S AD", X15_LEAD) == FollowProblem("T7.2", 3, 2)
    assert problem(X15_HAND, "8H 8H 5H 5H 3H 2H", X15_LEAD) == FollowProblem("T7.3", 2, 0)
    assert problem("8H 8H 7H 7H 5H 5H 3H 2H AS KD", "8H 8H 7H 7H 3H 2H", X15_LEAD) == FollowProblem("T7.4", 3, 2)
    assert problem("9H 9H 7H 3H", "7H 3H", "5H 5H") == FollowProblem("T7.4", 1, 0)
    assert str(FollowProblem("T7.4", 1, 0)) == "a pair of the led suit must be played: 1 held, 0 played (T7.4)"
    assert problem(X15_HAND, "8H 8H 7H 7H 5H 5H", X15_LEAD) is None


def test_T7_1_as_many_cards_as_the_lead() -> None:
    """T7.1: |C| = n."""
    assert not legal("5H 6H 7H", "5H 6H", "AH")
    assert legal("5H 6H 7H", "5H", "AH")


def test_T7_2_all_of_the_led_suit_when_short() -> None:
    """T7.2 (X15): holding AH KH 6H against a six-card lead, all three must be played, the
    rest any cards; holding back 6H is illegal."""
    hand = "AH KH 6H 3S 4S 5S 6S 7S 8S"
    assert legal(hand, "AH KH 6H 3S 4S 5S", X15_LEAD)
    assert not legal(hand, "AH KH 3S 4S 5S 6S", X15_LEAD)


def test_T7_3_X15_a_tractor_must_be_answered_by_a_tractor() -> None:
    """T7.3 (X15): against a three-pair tractor, 8-7-5 (the 8-7 run and a pair) is legal;
    breaking the 8-7 run is not; 5-3 plus 8 is legal only when partial runs do not count."""
    assert legal(X15_HAND, "8H 8H 7H 7H 5H 5H", X15_LEAD)
    assert not legal(X15_HAND, "8H 8H 5H 5H 3H 2H", X15_LEAD)
    other = "8H 8H 7H 7H 5H 5H 3H 3H 4S 6C"
    assert not legal(other, "5H 5H 3H 3H 8H 8H", X15_LEAD)
    assert legal(other, "5H 5H 3H 3H 8H 8H", X15_LEAD, partial=False)


def test_T7_4_pairs_must_be_answered_by_pairs() -> None:
    """T7.4 (X15): three pairs held against the tractor: two are not enough; and a pair lead
    against 9H 9H 7H 3H: 7H 3H is illegal, 9H 9H legal. Pairs inside tractors count."""
    assert not legal(X15_HAND, "8H 8H 7H 7H 3H 2H", X15_LEAD)
    assert not legal("9H 9H 7H 3H 4S", "7H 3H", "5H 5H")
    assert legal("9H 9H 7H 3H 4S", "9H 9H", "5H 5H")
    assert legal("9H 9H 8H 8H 3H", "9H 9H", "5H 5H")  # a pair of a run answers a pair


def test_T16_1_parts_of_a_longer_run_and_several_led_tractors() -> None:
    """T16.1: a run may be cut and matched to several led tractors, each at most as long;
    τ(C ∩ S) must reach τ(S). With partial_tractor_follow = false only runs of exactly the
    led length count, parts of longer runs included."""
    lead = "AH AH KH KH 6H 6H 5H 5H"  # two two-pair tractors (a throw)
    hand = "QH QH JH JH 9H 9H 8H 8H 3H 2H"
    assert legal(hand, "QH QH JH JH 9H 9H 8H 8H", lead)
    assert not legal(hand, "QH QH JH JH 9H 9H 3H 2H", lead)
    assert legal(hand, "QH QH JH JH 9H 9H 8H 8H", lead, partial=False)
    three = "QH QH JH JH 9H 9H"
    assert legal(three + " 8H 8H 2H", "QH QH JH JH 9H 9H", three)  # the part of a longer run
    assert not legal("QH QH JH JH 7H 7H 3H", "7H 7H 3H QH JH JH", three)


def test_T7_6_a_void_seat_plays_any_cards() -> None:
    """T7.6: no card of the led suit: any n cards, trumps or discards."""
    assert legal("3S 4S 5C 6C", "3S 5C", "AH AH")
    assert legal("3S 4S 5C 6C", "5C 6C", "AH AH")


def test_T7_8_the_only_legal_follow() -> None:
    """T7.8: the one legal play when there is exactly one (the last trick always)."""
    lead = lead_of("5H 5H")
    assert only_follow(counted(faces_of("9H 9H 7H 3H")), lead, TEN_SPADES) == counted(faces_of("9H 9H"))
    assert only_follow(counted(faces_of("9H 8H")), lead, TEN_SPADES) == counted(faces_of("9H 8H"))
    assert only_follow(counted(faces_of("9H 8H 7H")), lead, TEN_SPADES) is None


# ---------------------------------------------------------------------------
# A brute-force reading of T7, over every subset


def reference_runs(pairs: Counter[int], tractors: Sequence[int], exact: bool) -> int:
    """τ by exhaustive search: every run (start, length) for each led tractor in turn."""
    if not tractors:
        return 0
    best = reference_runs(pairs, tractors[1:], exact)  # this tractor answered by nothing
    top = max(pairs, default=0)
    lengths = [tractors[0]] if exact else range(2, tractors[0] + 1)
    for length in lengths:
        for start in range(1, top + 1):
            span = range(start, start + length)
            if all(pairs[omega] > 0 for omega in span):
                for omega in span:
                    pairs[omega] -= 1
                best = max(best, length + reference_runs(pairs, tractors[1:], exact))
                for omega in span:
                    pairs[omega] += 1
    return best


def reference_legal(hand: Sequence[int], play: Sequence[int], lead: Lead, order: Order, partial: bool) -> bool:
    """T7.1–T7.4 read literally."""
    n = lead.size
    if len(play) != n:
        return False
    suited = [face for face in hand if order.eff[face] == lead.suit]
    inside = [face for face in play if order.eff[face] == lead.suit]
    if len(inside) < min(n, len(suited)):
        return False
    if len(suited) <= n:
        return True

    def pairs_by_omega(cards: Sequence[int]) -> Counter[int]:
        counts = Counter(cards)
        return Counter(order.omega[face] for face, count in counts.items() if count == 2)

    tractors = sorted((unit.pairs for unit in lead.units if unit.pairs >= 2), reverse=True)
    if reference_runs(pairs_by_omega(inside), tractors, not partial) < \
            reference_runs(pairs_by_omega(suited), tractors, not partial):
        return False
    lead_pairs = sum(unit.pairs for unit in lead.units)
    return sum(pairs_by_omega(inside).values()) >= min(lead_pairs, sum(pairs_by_omega(suited).values()))


def reference_follows(hand: Sequence[int], lead: Lead, order: Order, partial: bool) -> set[str]:
    found = set()
    for chosen in combinations(range(len(hand)), lead.size):
        play = [hand[index] for index in chosen]
        if reference_legal(hand, play, lead, order, partial):
            found.add(faces_text(sorted(play)))
    return found


def random_position(rng: random.Random, order: Order) -> tuple[list[int], Lead]:
    """A small hand, rich in pairs of few faces, and a lead of one effective suit."""
    pool = [face for face in range(FACES) if rng.random() < 0.35]
    rng.shuffle(pool)
    hand: list[int] = []
    for face in pool[: rng.randint(2, 7)]:
        hand.extend([face] * rng.choice((1, 2, 2)))
    hand = hand[:11]
    suit = rng.choice(sorted({order.eff[face] for face in range(FACES)}))
    suited = [face for face in range(FACES) if order.eff[face] == suit]
    lead_faces: list[int] = []
    for face in rng.sample(suited, min(len(suited), rng.randint(1, 4))):
        lead_faces.extend([face] * rng.choice((1, 2, 2, 2)))
    lead = Lead.of(counted(lead_faces[:8]), order)
    if lead.size > len(hand) and hand:
        lead = Lead.of(counted(lead_faces[: len(hand)]), order)
    return hand, lead


@pytest.mark.parametrize("partial", [True, False])
def test_T7_legal_follows_are_sound_and_complete_against_every_subset(partial: bool) -> None:
    """T7.1–T7.4, T16.1: on 600 random small positions (several trump settings), the
    generator yields exactly the follows a literal reading of T7 accepts among every
    subset of the hand, each once, and the checker agrees with both."""
    rng = random.Random(7 + partial)
    orders = [TEN_SPADES, Order.of(rank_index("2"), None), Order.of(rank_index("5"), 2, True),
              Order.of(rank_index("A"), 1)]
    checked = 0
    for _ in range(600):
        order = rng.choice(orders)
        hand, lead = random_position(rng, order)
        if not hand or lead.size > len(hand):
            continue
        generated = [text(play) for play in legal_follows(counted(hand), lead, order, partial)]
        assert len(generated) == len(set(generated)), "each follow once"
        expected = reference_follows(hand, lead, order, partial)
        assert set(generated) == expected, (faces_text(hand), faces_text(lead.faces))
        for play in generated:
            assert follow_problem(counted(hand), counted(faces_of(play)), lead, order, partial) is None
        checked += 1
    assert checked > 500


def hands_and_leads() -> st.SearchStrategy[tuple[list[int], list[int], int]]:
    face_lists = st.lists(st.integers(0, FACES - 1), min_size=1, max_size=25)
    return st.tuples(face_lists, face_lists, st.sampled_from([TRUMP, 0, 1, 2, 3]))


@settings(max_examples=300, deadline=None)
@given(hands_and_leads(), st.sampled_from([(8, 0, False), (0, None, False), (4, 3, True), (12, 1, True)]),
       st.booleans())
def test_T7_5_a_legal_follow_always_exists(
    position: tuple[list[int], list[int], int], setting: tuple[int, int | None, bool], partial: bool
) -> None:
    """T7.5: for any hand and any lead no longer than it, a legal follow exists — the
    generator's first and the hosting follow (T11.2) are both legal."""
    level, suit, constant = setting
    order = Order.of(level, suit, constant)
    raw_hand, raw_lead, lead_suit = position
    hand = {face: min(count, 2) for face, count in counted(raw_hand).items()}
    lead_faces = {face: min(count, 2) for face, count in counted(raw_lead).items() if order.eff[face] == lead_suit}
    size = sum(hand.values())
    while lead_faces and sum(lead_faces.values()) > size:
        lead_faces.pop(next(iter(lead_faces)))
    if not lead_faces:
        return
    lead = Lead.of(lead_faces, order)
    first = next(legal_follows(hand, lead, order, partial))
    assert follow_problem(hand, first, lead, order, partial) is None
    hosting = hosting_follow(hand, lead, order, partial)
    assert follow_problem(hand, hosting, lead, order, partial) is None


def test_T11_2_the_hosting_follow() -> None:
    """T11.2: required runs and pairs first (lowest), then the rest of the led suit in the
    ranking (non-point before point, lower first), then other cards — a void seat discards
    side cards before any trump."""
    hand = counted(faces_of("8H 8H 7H 7H 5H 5H 3H 2H 4S 6C"))
    assert text(hosting_follow(hand, lead_of(X15_LEAD), TEN_SPADES)) == "5H 5H 7H 7H 8H 8H"
    single = hosting_follow(counted(faces_of("KH 6H 5H 2H")), lead_of("AH"), TEN_SPADES)
    assert text(single) == "2H"
    void = hosting_follow(counted(faces_of("3S 9C 10D KD 4D")), lead_of("AH AH"), TEN_SPADES)
    assert text(void) == "9C 4D"


@pytest.mark.parametrize(("hearts", "play", "refused"), [
    ("8H 8H 7H 7H 5H 5H 3H 2H", "8H 8H 7H 7H 5H 5H", None),
    ("8H 8H 7H 7H 5H 5H 3H 2H", "8H 8H 5H 5H 3H 2H", "tractors of the led suit"),
    ("8H 8H 7H 7H 5H 5H 3H 2H", "8H 8H 7H 7H 3H 2H", "3 pairs of the led suit"),
    ("8H 8H 7H 7H 5H 5H 3H 3H", "5H 5H 3H 3H 8H 8H", "tractors of the led suit"),
    ("AH KH 6H 4C 5C 6C 7C 8C", "AH KH 6H 4C 5C 6C", None),
    ("AH KH 6H 2S 3S 4S 5S 6S", "AH KH 2S 3S 4S 5S", "3 cards of the led suit"),
])
def test_T7_2_T7_3_T7_4_X15_through_the_referee(hearts: str, play: str, refused: str | None) -> None:
    """T7.2–T7.4 (X15) played: the follows of seat 1 to QH QH JH JH 9H 9H, accepted or
    refused with the duty they break."""
    from tractor_support import p, tractor

    from shuangkou.referee import ScenarioError

    hands = ["QH QH JH JH 9H 9H 2C 3C", hearts, "2D 3D 4D 5D 6D 7D 8D 9D", "JD QD KD AD JC QC KC AC"]
    actions = [p(0, X15_LEAD), p(1, play)]
    if refused is None:
        played = [event["cards"] for event in tractor(hands, actions)["events"] if event["type"] == "play"][1]
        assert sorted(faces_of(played)) == sorted(faces_of(play))
    else:
        with pytest.raises(ScenarioError, match=refused) as error:
            tractor(hands, actions)
        assert (error.value.code, error.value.action) == ("illegal_follow", 1)
