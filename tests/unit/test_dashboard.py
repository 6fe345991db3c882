"""The dashboard's data (persona/dashboard.py through the facade) and its layout functions: no data
is an empty graph with a note, never an error; stores not built yet show "none yet"."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

from managers.emotion_log import EmotionLog
from persona.service import NexusService
from tests.conftest import StepClock
from ui.dashboard_tab import NO_DATA, dashboard_values, emotion_figure, extras_markdown

NOW = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc)


def service_at(data_dir, clock):
    return NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: None, after_turn_work=False)


def test_no_data_yet_is_an_empty_graph_with_a_note_and_none_yet(data_dir):
    service = service_at(data_dir, StepClock(NOW))
    view = service.inner_life("Ark")
    assert view.emotions == () and view.dominant == "" and view.last_run == "" and view.goals is None
    figure = emotion_figure(view)
    assert figure.data == () and figure.layout.annotations[0].text == NO_DATA
    assert extras_markdown(view).count("none yet") == 3
    values = dashboard_values(service, "Ark")
    assert values[-1] == "0|" and "Dominant drive" in values[1]
    assert dashboard_values(service, "Ark", shown="0|")[2] == {"__type__": "update"}  # unchanged: not redrawn


def test_the_days_emotions_in_local_time_and_the_given_goals_questions_dreams(data_dir):
    clock = StepClock(NOW)
    service = service_at(data_dir, clock)
    session = service.session("Ark")
    session.chat_log.append("USER", "Mina", "Bye for now")
    log = EmotionLog(session.character.memory_dir)
    for hours, category in ((1, "anxious"), (2, "contentment"), (3, "joy")):
        log.append(NOW + timedelta(hours=hours), category, 0.6)
    clock.now = NOW + timedelta(hours=5)
    session.open_questions = lambda: [(0.9, NOW, "How did the exam go?")]
    view = service.inner_life("Ark", goals=["Learn Mina's favourite songs"], dreams=["2026-01-14: a quiet day"])
    assert [p.category for p in view.emotions] == ["anxious", "contentment", "joy"]
    assert all(p.at.utcoffset() == datetime.now().astimezone().utcoffset() for p in view.emotions)  # local
    assert view.questions == ("How did the exam go?",) and view.top_question == "How did the exam go?"
    assert view.dominant == "curiosity" and view.idle_minutes == 300
    figure = emotion_figure(view)
    assert sum(len(trace.x) for trace in figure.data) == 3 and not figure.layout.annotations
    assert figure.layout.xaxis.rangeslider.visible and figure.layout.xaxis.rangeselector.buttons
    extras = extras_markdown(view)
    assert "Learn Mina's favourite songs" in extras and "a quiet day" in extras and "How did the exam go?" in extras


def test_a_dream_whose_insight_was_left_out_is_listed_by_its_log_entry(data_dir):
    from managers.dream_diary import DreamEntry
    service = service_at(data_dir, StepClock(NOW))
    diary = service.session("Ark").dream_diary()
    diary.append(DreamEntry(created_at="2026-01-14 04:00:00", insight="", log_entry="I dreamt of Mina's lighthouse.",
                            night="2026-01-14"))
    diary.append(DreamEntry(created_at="2026-01-15 04:00:00", insight="", log_entry="", night="2026-01-15"))
    assert service.inner_life("Ark").dreams == ("2026-01-14 — I dreamt of Mina's lighthouse.",)


def test_the_drives_are_told_in_the_users_language_not_the_personas_hint(data_dir):
    # the sample persona's hint is Japanese first: a Spanish user read 「Lucíaと25時間話していなくて…」 (session 48)
    clock = StepClock(NOW)
    service = service_at(data_dir, clock)
    service.update_settings(user_name="Lucía")
    assert service.inner_life("Ark").language == "ja"  # no message yet: the persona's own language
    service.session("Ark").chat_log.append("USER", "Lucía", "Hoy he tenido un turno de noche agotador en el hospital.")
    clock.now = NOW + timedelta(hours=25)
    view = service.inner_life("Ark")
    assert view.language == "en" and "話していなくて" not in view.narrative and "Lucía" in view.narrative
