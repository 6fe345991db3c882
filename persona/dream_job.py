"""Sleep-time job: dreaming (seed 004 §5, 睡眠時処理) and the goals' nightly care (§6 Phase D).

Every night: stale short-term goals are let go. When there is a day the last dream did not see, the
persona dreams once (agent/dream.py: the level by dates, the days that fit the model's context, one
schema-forced ask) and the answer is applied — the dream diary entry (`insights.json`, the strategy
only when it passes its check, else the previous one stays), goal updates (never a goal the user
wrote or edited; at level ≥ 2 the 10-goal limit), new and resolved open questions, entity facts.
Then every resolved question is filed (Phase B: FACT / INSIGHT / SKIP, with discovery episodes).

The answer is saved (`dream_pending.json`) before any of it is applied and each write skips what is
there already, so a crash mid-dream resumes without a second ask and without duplicates; the goals'
`meta` (the night, the level's dates, the newest day seen) is written last.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Callable, Sequence

import constants
from agent.dream import (COPIED, OTHER_LANGUAGE, STRANGE_WORDS, UNGROUNDED, days_to_reflect, dream_again,
                         dream_material, dream_schema, dream_system, dream_user, fit_days, goal_ok, grounded_text,
                         level_for, misspelt_names, parse_dream, strategy_ok, why_dream_again)
from agent.entities import names_in
from agent.episodes import dated_text
from agent.language import message_language, write_in
from agent.out_of_character import says_the_instructions
from agent.providers.base import CallStopped, ChatModel
from agent.question_ask import (ahead_of, fit_messages, parse_questions, question_schema, question_system,
                               question_user)
from agent.sentences import shortened
from managers.chat_log import LogEntry
from managers.dream_diary import DreamDiary, DreamEntry, DreamPending, PendingDream
from managers.entities import EntityError, EntityStore
from managers.episodes import Episode, EpisodeStore
from managers.goals import (ACTIVE, COMPLETED, GoalError, GoalStore, abandon_goal, add_goal, enforce_limit,
                            stale_cleanup)
from managers.open_questions import BY_REFLECTION, OpenQuestionStore, QuestionError
from persona.episodes_job import JobTally, ask_tallied, days_of, users_part_kept
from persona.inner_life import complete_recorded, record_achievement
from persona.questions_job import Filing, file_question, rule_kind

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DreamStores:
    episodes: EpisodeStore
    goals: GoalStore
    questions: OpenQuestionStore
    diary: DreamDiary
    pending: PendingDream
    entities: EntityStore | None = None


def _users_words(entries: Sequence[LogEntry], first: str, now: datetime) -> list[tuple[str, LogEntry]]:
    """The user's messages from the day `first` on, with their day."""
    return [(day.isoformat(), entry) for day, talk in days_of(entries, now).items()
            if first <= day.isoformat() for entry in talk if entry.role == "USER"]


def _ask_questions(stores: DreamStores, model: ChatModel, persona: str, user_name: str, language: str, night: str,
                   messages: Sequence[LogEntry], should_stop: Callable[[], bool],
                   tally: JobTally) -> dict:
    """The questions' ask over the user's `messages` (the newest that fit, as the night's asks show them,
    dated): the pending dream's fields for it — its answer ("" when the provider failed), the messages,
    those that point ahead and the open questions' ids, as numbered; none (and no call) when no message
    points ahead and no question is open."""
    questions = stores.questions.unresolved()[: constants.OPEN_QUESTIONS_SHOWN]
    family = model.budget_family
    longest = question_system(persona, user_name, language, range(1, len(messages) + 1))
    room = (constants.CONTEXT_TOKENS[family] - constants.QUESTION_MAX_TOKENS[family] - model.count_tokens(longest)
            - model.count_tokens(question_user([], questions, write_in(language))) - constants.DREAM_PROMPT_MARGIN_TOKENS)
    shown = fit_messages([dated_text(m) for m in messages], room, model.count_tokens) if room > 0 else []
    if not shown:
        return {}
    ahead = ahead_of([m.text for m in messages[len(messages) - len(shown):]])  # the words as said, not dated
    if not ahead and not questions:
        return {}  # nothing to ask of and nothing to answer: no call
    answer = ask_tallied(model, question_system(persona, user_name, language, ahead),
                         question_user(shown, questions, write_in(language)), question_schema(ahead),
                         constants.QUESTION_MAX_TOKENS[family], should_stop, tally, f"questions {night}")
    log.debug("The questions' ask of %s over messages %s ahead: %s", night, ahead, answer)
    return {"questions_answer": answer or "", "question_messages": shown, "question_ahead": ahead,
            "question_ids": [q.id for q in questions]}


def _ask(stores: DreamStores, model: ChatModel, persona: str, user_name: str, language_hint: str, night: str,
         now: datetime, entries: Sequence[LogEntry], should_stop: Callable[[], bool],
         tally: JobTally) -> DreamPending | None:
    """The night's dream and its questions' ask, saved before they are applied; None when there is
    nothing new to dream of (or the provider failed: reported). CallStopped goes to the caller."""
    goals = stores.goals.load()
    today = now.date()
    level = level_for(today, goals.meta)
    last_dreamt = goals.meta.last_dream_day
    days = days_to_reflect(stores.episodes.all(), level, today, last_dreamt)
    new_days = [e for e in days if e.last_day > last_dreamt]
    if not new_days:
        return None  # no day the last dream did not see
    newest = max(e.last_day for e in days)
    language = message_language(" ".join(e.summary for e in days[:2])[-600:], [], language_hint) or "en"
    active = goals.active()
    system = dream_system(persona, user_name, level, language)
    frame = dream_again(dream_user(today, [], active, language), user_name, language,
                        (COPIED, OTHER_LANGUAGE, STRANGE_WORDS, UNGROUNDED))  # room for both asks
    family = model.budget_family
    room = (constants.CONTEXT_TOKENS[family] - constants.DREAM_MAX_TOKENS[family] - model.count_tokens(system)
            - model.count_tokens(frame) - constants.DREAM_PROMPT_MARGIN_TOKENS)
    said = [(day, entry) for day, entry in _users_words(entries, min(e.first_day for e in days), now) if day <= newest]
    user_texts = [dated_text(entry) for _, entry in said]
    new_first = min(e.first_day for e in new_days)
    words = fit_messages([t for (day, _), t in zip(said, user_texts) if day >= new_first],
                         int(room * constants.DREAM_USER_WORDS_SHARE), model.count_tokens) if room > 0 else []
    words_room = model.count_tokens(dream_user(today, [], [], "", words, user_name)) if words else 0
    lines = [line for line in fit_days(days, last_dreamt, room - words_room, model.count_tokens) if line]
    if not lines:
        tally.problems.append(f"dream {night}: no room for the days beside the goals")
        return None
    user = dream_user(today, lines, active, language, words, user_name)
    answer = ask_tallied(model, system, user, dream_schema(user_name), constants.DREAM_MAX_TOKENS[family], should_stop, tally,
                         f"dream {night}")
    if answer is None:
        return None
    days_text = "\n".join(lines)
    # what the ask showed besides the days: an insight that is a goal again copies as much as one
    # that is the days again
    shown = "\n".join([days_text, *(g.goal for g in active)])
    material, names = dream_material(days_text, user_texts, system), (persona, user_name)
    first = parse_dream(answer)
    reasons = why_dream_again(first, shown, language, material, names) if first is not None else ()
    if reasons:  # asked once more; the second answer is taken when it has fewer of the faults and no other
        log.info("The dream of %s was asked once more (%s)", night, ", ".join(reasons))
        again = ask_tallied(model, system, dream_again(user, user_name, language, reasons), dream_schema(user_name),
                            constants.DREAM_MAX_TOKENS[family], should_stop, tally, f"dream {night}")
        better = parse_dream(again) if again is not None else None
        taken = better is not None and set(why_dream_again(better, shown, language, material, names)) < set(reasons)
        log.info("The dream of %s: the second answer %s", night, "taken" if taken else "no better, the first kept")
        if taken:
            answer = again
    asked = _ask_questions(stores, model, persona, user_name, language, night,
                           [entry for day, entry in said if day >= new_first], should_stop, tally)
    pending = DreamPending(night=night, level=level, answer=answer, newest_day=newest, language=language,
                           days_text=days_text, goal_ids=[g.id for g in active],
                           user_texts=user_texts, **asked)
    stores.pending.save(pending)
    return pending


def _apply_goals(stores: DreamStores, pending: DreamPending, result, user_name: str, now: datetime,
                 tally: JobTally, names_in: Callable[[str], Sequence[str]]) -> None:
    def numbered(number: int):
        goal_id = pending.goal_ids[number - 1] if 0 < number <= len(pending.goal_ids) else ""
        return stores.goals.load().find(goal_id) if goal_id else None

    for number, note in result.completed_goals:
        goal = numbered(number)
        if goal is None or goal.user_edited:  # the user's goal: the night leaves it
            continue
        if goal.status == ACTIVE:
            complete_recorded(stores.goals, stores.episodes, goal.id, note, now, by_user=False)
            tally.written.append(f"goal completed: {shortened(goal.goal, constants.REPORT_ITEM_CHARS)}")
        elif goal.status == COMPLETED:  # completed before a crash: its episode again (it replaces itself)
            record_achievement(stores.episodes, goal, now)
    for number, reason in result.abandoned_goals:
        goal = numbered(number)
        if goal is not None and goal.status == ACTIVE and not goal.user_edited:
            stores.goals.change(lambda goals, g=goal, r=reason: abandon_goal(goals, g.id, r or "—", now))
            tally.written.append(f"goal abandoned: {shortened(goal.goal, constants.REPORT_ITEM_CHARS)}")
    for text, term, priority in result.new_goals:  # one the night had added before a crash is found by its text
        if not goal_ok(text, user_name, pending.user_texts, pending.language, names_in(text)):
            log.info("The dream's goal %r was not taken: it does not name %s, or it is theirs", text, user_name)
            continue  # "Continue practicing my cello", "Practice regularly": the user's practice as the persona's
        goals = stores.goals.load()
        before = {g.id for t in ("short_term", "long_term", "completed", "abandoned") for g in getattr(goals, t)}
        try:
            added = stores.goals.change(lambda goals, t=text, tm=term, p=priority: add_goal(goals, t, tm, p, now))
        except GoalError:
            continue
        if added.id not in before:
            tally.written.append(f"goal added: {shortened(added.goal, constants.REPORT_ITEM_CHARS)}")
    if pending.level >= constants.GOAL_LEVEL_FOR_LIMIT:
        gone = stores.goals.change(lambda goals: enforce_limit(goals, now))
        tally.written += [f"goal abandoned (limit): {shortened(g.goal, constants.REPORT_ITEM_CHARS)}" for g in gone]


def _apply_questions(stores: DreamStores, pending: DreamPending, persona: str, user_name: str, now: datetime,
                     tally: JobTally) -> dict:
    """New and answered questions of the questions' ask; the kinds it gave, by question id, for the filing."""
    questions = {q.id: q for q in stores.questions.all()}  # read once: the night's answers name them by number
    result = parse_questions(pending.questions_answer, pending.question_messages, pending.language,
                             pending.question_ahead, (user_name, persona),
                             [questions[i].text if i in questions else "" for i in pending.question_ids])
    added = stores.questions.add([(q.question, q.words, constants.OPEN_QUESTION_DEFAULT_PRIORITY) for q in result.new],
                                 now, pending.newest_day)
    tally.written += [f"question: {shortened(q.text, constants.REPORT_ITEM_CHARS)}" for q in added]
    kinds, resolved = {}, set()
    for item in result.answered:
        if not 0 < item.number <= len(pending.question_ids):
            continue
        question_id = pending.question_ids[item.number - 1]
        question = questions.get(question_id)
        if question is None or question.deleted:
            continue
        if not (question.resolved or question_id in resolved):
            try:
                stores.questions.resolve(question_id, item.answer, BY_REFLECTION, now)
            except QuestionError:
                continue
            resolved.add(question_id)
        if item.kind:
            kinds[question_id] = Filing(item.kind, item.about)
    return kinds


def _apply_entities(stores: DreamStores, pending: DreamPending, result, now: datetime, tally: JobTally) -> None:
    if stores.entities is None:
        return
    known = stores.entities.names()
    for name, fact in result.entity_updates:
        if not (names_in(pending.days_text, [name]) or names_in(name, known)):
            continue  # a name the days do not hold: the small model's invention
        try:
            page, added = stores.entities.append(name, f"- [{pending.newest_day}] {fact}", now)
        except EntityError as exc:
            tally.problems.append(f"dream entity {name}: {exc}")
            continue
        if added:
            tally.written.append(f"entity {page.name}")


def _apply(stores: DreamStores, pending: DreamPending, persona: str, user_name: str, now: datetime,
           tally: JobTally, also_called: Sequence[str] = ()) -> dict:
    result = parse_dream(pending.answer)
    if result is None:
        tally.problems.append(f"dream {pending.night}: the model's answer was not a usable reflection")
        log.warning("No usable dream for %s: %r", pending.night, pending.answer[:300])
        stores.pending.clear()
        return {}
    theirs = pending.user_texts
    asked = dream_system(persona, user_name, pending.level, pending.language)
    material = dream_material(pending.days_text, theirs, asked)

    def names_in(text: str) -> tuple[str, ...]:  # the persona's other names, and their misspellings in `text`
        return (*also_called, *misspelt_names(text, also_called, f"{material}\n{asked}"))

    accepted = strategy_ok(result.strategy, pending.language, user_name, pending.days_text, theirs,
                           (persona, *names_in(result.strategy)))
    if result.strategy and not accepted:
        log.info("The dream's strategy %r was not taken (language, or not about %s)", result.strategy, user_name)

    def kept(text: str) -> str:  # the user's doings told as the persona's (by any of its names) said back as theirs
        text = own_words(text)
        return users_part_kept(text, theirs, user_name, pending.language, persona=persona,
                               also_called=names_in(text)) if theirs and text else text

    def own_words(text: str) -> str:  # the ask's own words said back are no answer ("a few words for what the
        # dream is about" as the topic: bench nights, session 25), nor what the days do not say
        said = "" if says_the_instructions(text, [asked], (persona, user_name)) else text
        borne_out = grounded_text(said, material, (persona, user_name))
        if borne_out != said:
            log.info("Left out of the dream of %s, not in its days: %r → %r", pending.night, said, borne_out)
        return borne_out
    entry = DreamEntry(created_at=now.strftime("%Y-%m-%d %H:%M:%S"), trigger_topic=own_words(result.trigger_topic),
                       insight=kept(result.insight), strategy=result.strategy if accepted else "",
                       log_entry=kept(result.log_entry),
                       night=pending.night, level=pending.level,
                       strategy_rejected="" if accepted else result.strategy)
    if stores.diary.append(entry):
        tally.written.append(f"dream {pending.night} (level {pending.level})")
    _apply_goals(stores, pending, result, user_name, now, tally, lambda text: (persona, *names_in(text)))
    kinds = _apply_questions(stores, pending, persona, user_name, now, tally)
    _apply_entities(stores, pending, result, now, tally)
    today = now.date().isoformat()

    def new_meta(goals):
        meta = goals.meta.model_copy(update={
            "last_reflection_level": pending.level, "last_dream_night": pending.night,
            "last_dream_day": max(goals.meta.last_dream_day, pending.newest_day),
            "first_dream_date": goals.meta.first_dream_date or today,
            **({"last_level2_date": today} if pending.level >= 2 else {}),
            **({"last_level3_date": today} if pending.level == 3 else {})})
        return goals.model_copy(update={"meta": meta}), None
    stores.goals.change(new_meta)
    stores.pending.clear()
    return kinds


def dream_step(stores: DreamStores, model: ChatModel, *, persona: str, user_name: str, language_hint: str, night: str,
               now: datetime, should_stop: Callable[[], bool], tally: JobTally,
               entries: Sequence[LogEntry] = (), also_called: Sequence[str] = ()) -> bool:
    """The night's dreaming and the goals' and questions' care; False when a reply stopped it.
    `entries`: the chat log, whose user's words of the days dreamt stay the user's in the dream;
    `also_called`: the persona's other names (its display name's: アーク for Ark)."""
    try:
        gone = stores.goals.change(lambda goals: stale_cleanup(goals, now))
    except GoalError as exc:
        tally.problems.append(f"goals: {exc}")
        gone = []
    tally.written += [f"goal abandoned (stale): {shortened(g.goal, constants.REPORT_ITEM_CHARS)}" for g in gone]
    kinds: dict = {}
    if stores.goals.load().meta.last_dream_night != night:
        pending = stores.pending.load()
        if pending is None or pending.night != night:
            if should_stop():
                return False
            try:
                pending = _ask(stores, model, persona, user_name, language_hint, night, now, entries, should_stop,
                               tally)
            except CallStopped:
                return False
        if pending is not None:
            kinds = _apply(stores, pending, persona, user_name, now, tally, also_called)
    known = stores.entities.names() if stores.entities is not None else []
    for question in stores.questions.to_file():
        rule = rule_kind(question, known)
        filing = kinds.get(question.id) or rule
        if filing.kind == "FACT" and not filing.about:  # the reflection said FACT but not about whom
            filing = rule
        tally.written.append(file_question(question, filing, questions=stores.questions, entities=stores.entities,
                                           diary=stores.diary, episodes=stores.episodes, night=night, now=now))
    return True
