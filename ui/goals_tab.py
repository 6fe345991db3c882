"""Goals (seed 004 §6): the persona's active goals, what it completed or let go of and why, and the
user's edits — a goal the user writes or changes here is the user's, and the night leaves it."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

from persona.public import PersonaError
from persona.service import NexusService

ACTIVE_COLUMNS = ["Goal id", "Term", "Priority", "Goal", "Set by"]
CLOSED_COLUMNS = ["Goal", "Outcome", "When", "Why / note"]
TERMS = [("Short-term", "short_term"), ("Long-term", "long_term")]


@dataclass
class GoalsTab:
    active: gr.Dataframe
    closed: gr.Dataframe
    stats: gr.Markdown
    choice: gr.Dropdown

    def outputs(self) -> list:
        return [self.active, self.closed, self.stats, self.choice]


def goals_values(service: NexusService, name: str) -> list:
    if not name:
        return [[], [], "", gr.update(choices=[], value=None)]
    goals = service.goals(name)
    active = [[g.id, "long" if g.term == "long_term" else "short", g.priority, g.goal, "you" if g.user_edited else name]
              for g in goals.active()]
    closed = sorted([[g.goal, "✅ completed", g.completed_at[:16].replace("T", " "), g.completion_note] for g in goals.completed]
                    + [[g.goal, "✖ abandoned", g.abandoned_at[:16].replace("T", " "), g.reason] for g in goals.abandoned],
                    key=lambda row: row[2], reverse=True)
    s = service.goal_statistics(name)
    stats = (f"**Active:** {s.active_short} short-term · {s.active_long} long-term · **completed** {s.completed} · "
             f"**abandoned** {s.abandoned} ({s.abandoned_automatically} by the nightly clean-up)")
    return [active, closed, stats, gr.update(choices=[(f"{r[3]} ({r[0]})", r[0]) for r in active], value=None)]


def build_goals_tab(service: NexusService, persona: gr.Dropdown) -> GoalsTab:
    gr.Markdown("The **persona's** goals: those it set itself while reflecting at night (or with its tool), and those "
                "you give it here. A goal you add or change here is the persona's to pursue, in your words: the night's "
                "reflection leaves it as you wrote it, and the top one becomes what drives it.")
    stats = gr.Markdown(elem_id="goal-stats")
    active = gr.Dataframe(headers=ACTIVE_COLUMNS, interactive=False, wrap=True, elem_id="goals-table")
    with gr.Accordion("Completed and abandoned", open=False):
        closed = gr.Dataframe(headers=CLOSED_COLUMNS, interactive=False, wrap=True, elem_id="closed-goals-table")
    with gr.Group():
        with gr.Row():
            new_text = gr.Textbox(label="New goal", scale=3, elem_id="new-goal")
            new_term = gr.Dropdown(TERMS, value="short_term", label="Term", scale=1)
            new_priority = gr.Slider(1, 5, value=3, step=1, label="Priority (1 highest)", scale=1)
        add = gr.Button("Add goal", elem_id="add-goal")
    with gr.Group():
        choice = gr.Dropdown([], label="Goal to change", elem_id="goal-choice")
        with gr.Row():
            text = gr.Textbox(label="Goal", scale=3, elem_id="goal-editor")
            priority = gr.Slider(1, 5, value=3, step=1, label="Priority (1 highest)", scale=1)
        reason = gr.Textbox(label="Why (to abandon) or a note (on completion)", elem_id="goal-reason")
        with gr.Row():
            save = gr.Button("Save goal", elem_id="save-goal")
            complete = gr.Button("Mark completed", elem_id="complete-goal")
            abandon = gr.Button("Abandon", variant="stop", elem_id="abandon-goal")
    status = gr.Markdown(elem_id="goal-status")
    tab = GoalsTab(active, closed, stats, choice)

    def done(name, message):
        return [message, *goals_values(service, name)]

    def attempt(name, action, ok):
        try:
            action()
        except PersonaError as exc:
            return [f"⚠️ {exc}", *[gr.update()] * len(tab.outputs())]
        return done(name, ok)

    def on_choose(name, goal_id):
        goal = next((g for g in service.goals(name).active() if g.id == goal_id), None) if goal_id else None
        return (goal.goal, goal.priority) if goal else ("", 3)

    def need_choice(handler):
        def run(name, goal_id, *args):
            if not goal_id:
                return ["Choose a goal first.", *[gr.update()] * len(tab.outputs())]
            return handler(name, goal_id, *args)
        return run

    outputs = [status, *tab.outputs()]
    add.click(lambda name, t, term, p: attempt(name, lambda: service.add_goal(name, t, term, int(p)), "✅ Goal added."),
              [persona, new_text, new_term, new_priority], outputs)
    choice.change(on_choose, [persona, choice], [text, priority])
    save.click(need_choice(lambda name, gid, t, p: attempt(
        name, lambda: service.edit_goal(name, gid, t, int(p)), "✅ Goal saved; the night will leave it as you wrote it.")),
        [persona, choice, text, priority], outputs)
    complete.click(need_choice(lambda name, gid, note: attempt(
        name, lambda: service.complete_goal(name, gid, note), "✅ Completed; remembered as an achievement.")),
        [persona, choice, reason], outputs)
    abandon.click(need_choice(lambda name, gid, why: attempt(
        name, lambda: service.abandon_goal(name, gid, why), "Goal abandoned.")), [persona, choice, reason], outputs)
    return tab
