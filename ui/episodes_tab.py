"""Episodes and sleep-time work: the persona's episodes by month (read and edit), "Sleep now" with
progress, and the last night's report. Layout only: what the viewer shows is the facade's
`episode_months` (persona/episode_view.py)."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

import constants

from persona.public import EpisodeMonths, PersonaError, SleepBusy
from persona.service import NexusService

COLUMNS = ["Episode", "Dates", "Kind", "Arousal", "Summary"]
PREVIEW_CHARS = 160
KIND_LABELS = {"achievement": "🏆 achievement", "discovery": "💡 discovery", "bonding": "🤝 bonding"}


@dataclass
class EpisodesTab:
    table: gr.Dataframe
    report: gr.Markdown
    choice: gr.Dropdown
    month: gr.Dropdown

    def outputs(self) -> list:
        return [self.table, self.report, self.choice, self.month]


def table_rows(view: EpisodeMonths) -> list[list]:
    rows = []
    for row in view.rows:
        arousal = f"{'★ ' if row.starred else ''}{row.arousal:.2f}" if row.arousal is not None else ""
        summary = row.summary if len(row.summary) <= PREVIEW_CHARS else row.summary[:PREVIEW_CHARS] + "…"
        rows.append([row.id, row.dates, KIND_LABELS.get(row.kind, row.kind), arousal, summary])
    return rows


def month_values(service: NexusService, name: str, month: str | None = None) -> list:
    """The table, the episode choice and the month selector for `month` (None: the newest)."""
    view = service.episode_months(name, month)
    return [table_rows(view), gr.update(choices=[r.id for r in view.rows], value=None),
            gr.update(choices=view.choices, value=view.month or None)]


def report_text(service: NexusService, name: str) -> str:
    state = service.sleep_state(name)
    if not state.reports:
        return ("No sleep-time work yet. It runs once a night in the quiet hours (Settings) after you have been "
                "idle a while, or now with **Sleep now**.")
    last = state.reports[-1]
    lines = [f"**Last run** {last.started_at[:16].replace('T', ' ')} · {last.wall_s:.0f} s · {last.model_calls} model calls",
             "Wrote: " + (", ".join(last.written) if last.written else "nothing new")]
    if last.step_seconds:
        lines.append("Steps: " + " · ".join(f"{step} {seconds:.0f} s" for step, seconds in last.step_seconds.items()))
    if last.stopped:
        lines.append("Stopped for a reply; the rest follows at the next quiet moment.")
    elif not last.written:
        lines.append("Only finished days become episodes: today's conversation is written in the first night's run after today ends.")
    lines += [f"⚠️ {problem}" for problem in last.problems]
    return "\n\n".join(lines)


def episodes_values(service: NexusService, name: str, month: str | None = None) -> list:
    if not name:
        return [[], "", gr.update(choices=[], value=None), gr.update(choices=[], value=None)]
    table, choice, months = month_values(service, name, month)
    return [table, report_text(service, name), choice, months]


def build_episodes_tab(service: NexusService, persona: gr.Dropdown) -> EpisodesTab:
    gr.Markdown("Each finished day becomes an episode in the persona's own words during sleep-time work (older "
                "days fold into weeks); ★ marks a stirring day, 🏆 💡 🤝 an achievement, discovery or bond. Episodes "
                "are recalled in conversation, and you can correct them here.")
    with gr.Row():
        sleep = gr.Button("Sleep now", elem_id="sleep-now-btn", scale=0)
        report = gr.Markdown(elem_id="sleep-report")
    month = gr.Dropdown([], label="Month", elem_id="episode-month")
    table = gr.Dataframe(headers=COLUMNS, interactive=False, wrap=True, elem_id="episodes-table")
    with gr.Group():
        choice = gr.Dropdown([], label="Episode to edit", elem_id="episode-choice")
        text = gr.Textbox(label="Summary", lines=6, elem_id="episode-editor")
        with gr.Row():
            save = gr.Button("Save episode", elem_id="save-episode")
            delete = gr.Button("Delete episode…", variant="stop", elem_id="delete-episode")
            confirm = gr.Button("Yes, delete it", variant="stop", visible=False, elem_id="confirm-delete-episode")
        saved = gr.Markdown(elem_id="episode-status")
    tab = EpisodesTab(table, report, choice, month)

    def on_sleep(name, progress=gr.Progress()):
        try:
            service.sleep_now(name, lambda what, done: progress(done, desc=what),
                              wait_for_reply_s=constants.SLEEP_NOW_REPLY_WAIT_S)
        except SleepBusy as exc:
            gr.Warning(str(exc))
        return episodes_values(service, name)

    def on_choose(name, episode_id):
        episode = next((e for e in service.episodes(name) if e.id == episode_id), None) if episode_id else None
        return episode.summary if episode else ""

    def on_save(name, episode_id, summary, shown_month):
        if not episode_id:
            return "Choose an episode first.", gr.update(), gr.update()
        try:
            service.save_episode(name, episode_id, summary)
        except PersonaError as exc:
            return f"⚠️ Not saved: {exc}", gr.update(), gr.update()
        table, _, months = month_values(service, name, shown_month)  # the choice stays: the editor keeps the text
        return "✅ Episode saved; the night's work will leave it as you wrote it.", table, months

    def on_confirm(name, episode_id, shown_month):
        if not episode_id:
            return "Choose an episode first.", gr.update(visible=False), *episodes_values(service, name, shown_month)
        try:
            service.delete_episode(name, episode_id)
        except PersonaError as exc:
            return f"⚠️ Not deleted: {exc}", gr.update(visible=False), *episodes_values(service, name, shown_month)
        return ("🗑️ Episode deleted; the night's work will not write that day again.", gr.update(visible=False),
                *episodes_values(service, name, shown_month))

    delete.click(lambda: gr.update(visible=True), None, [confirm])
    confirm.click(on_confirm, [persona, choice, month], [saved, confirm, *tab.outputs()])
    sleep.click(on_sleep, [persona], tab.outputs())
    # `input`, not `change`: only the user's pick; the lists set by the handlers above need no second look.
    month.input(lambda name, chosen: month_values(service, name, chosen), [persona, month], [table, choice, month])
    choice.change(on_choose, [persona, choice], [text])
    save.click(on_save, [persona, choice, text, month], [saved, table, month])
    return tab
