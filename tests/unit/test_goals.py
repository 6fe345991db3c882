"""Goals (seed 004 §6, Phases D/E): the nightly stale clean-up and the 10-goal limit with a fixed
`now`, statistics, the prompt's 3 short + 2 long, the persona's manage_goals tool (a completion is an
achievement episode) and the user's edits, which the clean-ups leave alone."""
from datetime import datetime, timedelta, timezone

import pytest

import constants
from agent.providers.base import ToolCall
from agent.providers.fake import ScriptedChatModel, replies
from agent.tools import run_tool
from managers.goals import (LIMIT_REASON, LONG, SHORT, STALE_REASON, GoalError, Goals, add_goal, complete_goal,
                            enforce_limit, find_active, stale_cleanup, statistics, update_goal)
from persona.service import NexusService
from persona.tool_host import PersonaTools
from tests.conftest import StepClock

NOW = datetime(2026, 4, 20, 3, 0, tzinfo=timezone.utc)


def goals_made(*specs):
    """(text, term, priority, days ago, by user) each."""
    goals = Goals()
    for text, term, priority, ago, by_user in specs:
        goals, _ = add_goal(goals, text, term, priority, NOW - timedelta(days=ago), by_user=by_user)
    return goals


def test_a_short_goal_30_days_without_progress_is_abandoned_and_29_days_is_kept():
    goals = goals_made(("Write a poem", SHORT, 1, 30, False), ("Learn a song", SHORT, 1, 29, False),
                       ("Read Mina's novel", LONG, 2, 90, False), ("Bake bread", SHORT, 2, 45, True))
    goals, gone = stale_cleanup(goals, NOW)
    assert [g.goal for g in gone] == ["Write a poem"]
    assert [g.goal for g in goals.abandoned] == ["Write a poem"] and goals.abandoned[0].reason == STALE_REASON
    assert goals.abandoned[0].abandoned_at == NOW.isoformat(timespec="seconds")
    # the younger one, the long-term one and the user's own stay active
    assert sorted(g.goal for g in goals.active()) == ["Bake bread", "Learn a song", "Read Mina's novel"]
    assert stale_cleanup(goals, NOW)[1] == []  # a second run of the night changes nothing


def test_progress_restarts_the_30_days():
    goals = goals_made(("Write a poem", SHORT, 1, 40, False))
    goals, _ = update_goal(goals, goals.short_term[0].id, NOW - timedelta(days=5), note="Wrote the first verse")
    goals, gone = stale_cleanup(goals, NOW)
    assert gone == [] and goals.short_term[0].progress_notes == ["[2026-04-15] Wrote the first verse"]


def test_past_ten_short_goals_the_lowest_priority_then_the_oldest_go_and_the_users_stay():
    specs = [(f"Goal {i}", SHORT, 1, 20 - i, False) for i in range(9)]
    specs += [("Low old", SHORT, 5, 25, False), ("Low new", SHORT, 5, 1, False), ("User's low", SHORT, 5, 30, True),
              ("Low older", SHORT, 5, 26, False)]
    goals = goals_made(*specs)
    assert len(goals.short_term) == 13
    goals, gone = enforce_limit(goals, NOW)
    assert [g.goal for g in gone] == ["Low older", "Low old", "Low new"]
    assert len(goals.short_term) == constants.GOAL_MAX_SHORT and "User's low" in [g.goal for g in goals.short_term]
    assert all(g.reason == LIMIT_REASON for g in goals.abandoned)
    assert enforce_limit(goals, NOW)[1] == []


def test_statistics_and_the_same_goal_is_never_added_twice():
    goals = goals_made(("Write a poem", SHORT, 1, 3, False), ("Visit the sea", LONG, 2, 3, False),
                       ("Learn a song", SHORT, 3, 3, False))
    goals, done = complete_goal(goals, find_active(goals, "write a POEM").id, "Finished it", NOW)
    again, same = add_goal(goals, "  write a poem ", SHORT, 1, NOW)  # completed already: not revived
    assert again == goals and same.id == done.id
    stats = statistics(goals)
    assert (stats.active_short, stats.active_long, stats.completed, stats.abandoned) == (1, 1, 1, 0)
    assert stats.completion_rate == 1.0
    with pytest.raises(GoalError):
        complete_goal(goals, done.id, "", NOW)  # not active any more


def make(data_dir, native_tools=False):
    clock = StepClock(NOW)
    model = ScriptedChatModel(replies("Sure."), native_tools=native_tools, budget_family="remote" if native_tools else "local")
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="Mina")
    return service, model, clock


def test_the_prompt_shows_three_short_and_two_long_goals_by_priority(data_dir):
    service, model, _ = make(data_dir)
    for i, priority in enumerate((4, 1, 3, 2, 5)):
        service.add_goal("Ark", f"Short goal {i}", SHORT, priority)
    for i, priority in enumerate((3, 1, 2)):
        service.add_goal("Ark", f"Long goal {i}", LONG, priority)
    list(service.send("Ark", "Hello!"))
    system = model.calls[0][0][0].content
    section = system.split("# Your goals\n")[1].split("\n\n")[0].splitlines()[1:]
    assert section == ["- (short-term) Short goal 1", "- (short-term) Short goal 3", "- (short-term) Short goal 2",
                       "- (long-term) Long goal 1", "- (long-term) Long goal 2"]


def test_manage_goals_adds_completes_with_an_achievement_episode_and_abandons_with_a_reason(data_dir):
    service, model, clock = make(data_dir, native_tools=True)
    host = PersonaTools(service.session("Ark"), lambda: None, lambda: None, clock)
    added = run_tool(ToolCall("manage_goals", {"action": "add", "goal": "創作ノートで詩を書く", "priority": 1}), host)
    assert added.ok and "short-term" in added.result
    assert "already" in run_tool(ToolCall("manage_goals", {"action": "add", "goal": "創作ノートで詩を書く"}), host).result
    run_tool(ToolCall("manage_goals", {"action": "add", "goal": "Learn Mina's favourite song", "term": "long_term"}), host)
    assert not run_tool(ToolCall("manage_goals", {"action": "abandon", "goal": "favourite song"}), host).ok  # no reason
    assert run_tool(ToolCall("manage_goals", {"action": "priority", "goal": "favourite song", "priority": 2}), host).ok
    assert service.goals("Ark").long_term[0].priority == 2
    done = run_tool(ToolCall("manage_goals", {"action": "complete", "goal": "詩を書く"}), host)
    assert done.ok and service.goals("Ark").completed[0].goal == "創作ノートで詩を書く"
    [episode] = service.episodes("Ark")
    assert episode.type == "achievement" and episode.arousal == constants.ACHIEVEMENT_AROUSAL
    assert episode.summary == "【達成】目標「創作ノートで詩を書く」を達成した。"
    assert episode.model_extra["goal_id"] == service.goals("Ark").completed[0].id
    gone = run_tool(ToolCall("manage_goals", {"action": "abandon", "goal": "favourite song", "reason": "Mina moved on"}), host)
    assert gone.ok and service.goals("Ark").abandoned[0].reason == "Mina moved on"
    assert "No active goal" in run_tool(ToolCall("manage_goals", {"action": "complete", "goal": "nothing"}), host).result


def test_the_users_goals_are_marked_and_left_by_the_nightly_clean_ups(data_dir):
    service, _, clock = make(data_dir)
    mine = service.add_goal("Ark", "Ask Mina about her trip", SHORT, 5)
    assert mine.user_edited
    edited = service.edit_goal("Ark", mine.id, priority=4)
    assert edited.user_edited and edited.priority == 4
    goals, gone = stale_cleanup(service.goals("Ark"), NOW + timedelta(days=60))
    assert gone == []
    assert service.top_active_goal("Ark").id == mine.id
    service.complete_goal("Ark", mine.id, "Asked")
    assert service.episodes("Ark")[0].type == "achievement" and service.top_active_goal("Ark") is None
