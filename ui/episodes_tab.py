"""Episodes and sleep-time work: the persona's episodes (read and edit), "Sleep now" with
progress, and the last night's report."""
from __future__ import annotations

from dataclasses import dataclass

import gradio as gr

import constants

from persona.public import PersonaError, SleepBusy
from persona.service import NexusService

COLUMNS = ["Episode", "Date", "Arousal", "Summary"]
PREVIEW_CHARS = 160


@dataclass
class EpisodesTab:
    table: gr.Dataframe
    report: gr.Markdown
    choice: gr.Dropdown

    def outputs(self) -> list:
        return [self.table, self.report, self.choice]


def episode_rows(service: NexusService, name: str) -> list[list]:
    rows = []
    for episode in reversed(service.episodes(name)):  # newest first
        arousal = episode.arousal if episode.arousal is not None else episode.arousal_avg
        star = "★ " if (episode.arousal_max or 0) >= constants.AROUSAL_STAR_THRESHOLD else ""
        summary = episode.summary if len(episode.summary) <= PREVIEW_CHARS else episode.summary[:PREVIEW_CHARS] + "…"
        rows.append([episode.id, episode.date, f"{star}{arousal:.2f}" if arousal is not None else "", summary])
    return rows


def report_text(service: NexusService, name: str) -> str:
    state = service.sleep_state(name)
    if not state.reports:
        return ("No sleep-time work yet. It runs once a night in the quiet hours (Settings) after you have been "
                "idle a while, or now with **Sleep now**.")
    last = state.reports[-1]
    lines = [f"**Last run** {last.started_at[:16].replace('T', ' ')} · {last.wall_s:.0f} s · {last.model_calls} model calls",
             "Wrote: " + (", ".join(last.written) if last.written else "nothing new")]
    if last.stopped:
        lines.append("Stopped for a reply; the rest follows at the next quiet moment.")
    lines += [f"⚠️ {problem}" for problem in last.problems]
    return "\n\n".join(lines)


def episodes_values(service: NexusService, name: str) -> list:
    if not name:
        return [[], "", gr.update(choices=[], value=None)]
    rows = episode_rows(service, name)
    return [rows, report_text(service, name), gr.update(choices=[r[0] for r in rows], value=None)]


def build_episodes_tab(service: NexusService, persona: gr.Dropdown) -> EpisodesTab:
    gr.Markdown("Each finished day becomes an episode in the persona's own words during sleep-time work; "
                "★ marks a stirring day. Episodes are recalled in conversation, and you can correct them here.")
    with gr.Row():
        sleep = gr.Button("Sleep now", elem_id="sleep-now-btn", scale=0)
        report = gr.Markdown(elem_id="sleep-report")
    table = gr.Dataframe(headers=COLUMNS, interactive=False, wrap=True, elem_id="episodes-table")
    with gr.Group():
        choice = gr.Dropdown([], label="Episode to edit", elem_id="episode-choice")
        text = gr.Textbox(label="Summary", lines=6, elem_id="episode-editor")
        with gr.Row():
            save = gr.Button("Save episode", elem_id="save-episode")
            delete = gr.Button("Delete episode…", variant="stop", elem_id="delete-episode")
            confirm = gr.Button("Yes, delete it", variant="stop", visible=False, elem_id="confirm-delete-episode")
        saved = gr.Markdown(elem_id="episode-status")
    tab = EpisodesTab(table, report, choice)

    def on_sleep(name, progress=gr.Progress()):
        try:
            service.sleep_now(name, lambda what, done: progress(done, desc=what))
        except SleepBusy as exc:
            gr.Warning(str(exc))
        return episodes_values(service, name)

    def on_choose(name, episode_id):
        episode = next((e for e in service.episodes(name) if e.id == episode_id), None) if episode_id else None
        return episode.summary if episode else ""

    def on_save(name, episode_id, summary):
        if not episode_id:
            return "Choose an episode first.", gr.update()
        try:
            service.save_episode(name, episode_id, summary)
        except PersonaError as exc:
            return f"⚠️ Not saved: {exc}", gr.update()
        return "✅ Episode saved; the night's work will leave it as you wrote it.", episode_rows(service, name)

    def on_confirm(name, episode_id):
        if not episode_id:
            return "Choose an episode first.", gr.update(visible=False), *episodes_values(service, name)
        try:
            service.delete_episode(name, episode_id)
        except PersonaError as exc:
            return f"⚠️ Not deleted: {exc}", gr.update(visible=False), *episodes_values(service, name)
        return ("🗑️ Episode deleted; the night's work will not write that day again.", gr.update(visible=False),
                *episodes_values(service, name))

    delete.click(lambda: gr.update(visible=True), None, [confirm])
    confirm.click(on_confirm, [persona, choice], [saved, confirm, *tab.outputs()])
    sleep.click(on_sleep, [persona], tab.outputs())
    choice.change(on_choose, [persona, choice], [text])
    save.click(on_save, [persona, choice, text], [saved, table])
    return tab
