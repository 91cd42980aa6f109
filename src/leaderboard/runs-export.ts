// Every run of a challenge in one download (GET /challenges/:slug/runs/export): for each
// task with a gold standard, its runs (offline as stored, online as the family writes a
// result file) and its gold, in forms `metaserver score` reads (runs-export-files.ts), so a
// run file scored against its gold file gives the run's row; then `scores.tsv`, every row
// of every task's board in long form, and `manifest.json` (who, what, when, left out why).
// Everything small (the boards, the runs' headings) is read before the answer starts, so a
// failure there is an ordinary error answer; the files follow entry by entry, one run's
// body held at a time.
import { ApiError } from '../http/api-error.ts';
import { FormatError } from '../formats/common.ts';
import type { AddArchiveFile, ArchiveFile } from '../formats/tar-gz.ts';
import type { Challenge } from '../challenges/repository.ts';
import type { ServerRepository } from '../servers/repository.ts';
import type { TaskName } from '../families/registry.ts';
import { flattenMetrics, type ColumnLayout } from '../scoring/index.ts';
import type { GoldRepository } from './gold-repository.ts';
import type { Leaderboard, LeaderboardRow } from './leaderboard.ts';
import { onlineRun, type OnlineAnswer } from './online-runs.ts';
import type { OfflineRunHead, RunsRepository } from './runs-repository.ts';
import {
  notWrittenReason,
  onlineColumns,
  onlineFiles,
  pathOf,
  runFileForm,
  segment,
  storedFiles,
  type RunFileForm,
} from './runs-export-files.ts';

/** What the export reads (LeaderboardService.runsExportSources hands it over). */
export interface RunsExportSources {
  gold: Pick<GoldRepository, 'goldHeading' | 'gold'>;
  runs: Pick<RunsRepository, 'heads' | 'body'>;
  servers: Pick<ServerRepository, 'listByChallenge'>;
  /** AnswerRepository, by shape (articles/ builds on the leaderboard). */
  answers: {
    onlineAnswers(serverId: number, task: TaskName, opts: { scoredOnly: boolean }): Promise<OnlineAnswer[]>;
    onlineAnswerTimes(serverIds: readonly number[], task: TaskName): Promise<Map<number, Date>>;
  };
  /** The task's board with the default options: the rows GET /scores/:task answers. */
  board(challenge: Challenge, task: TaskName): Promise<Leaderboard>;
  /** The task's official board, as stored at the close (official-boards.ts); null when there is none. */
  officialBoard(challenge: Challenge, task: TaskName): Promise<Leaderboard | null>;
  /** The gold's documents the boards do not score (background articles of the challenge). */
  background(challenge: Challenge, task: TaskName): Promise<string[]>;
}

export interface ManifestRun {
  task: TaskName;
  run: string;
  kind: 'R' | 'S';
  team: string;
  server: number | null;
  serverName: string | null;
  baseline: boolean;
  /** The run's file (`.tsv`) or folder (`/`: a brat directory) in the archive. */
  file: string;
  /** `metaserver score --columns` to score it with; null where the task takes none. */
  columns: ColumnLayout | null;
  /** An offline run's upload, an online run's latest stored answer (null: none). */
  time: string | null;
  /** Its row on the live board is marked post-challenge (something of it arrived after the official close). */
  postChallenge: boolean;
}

export interface ManifestGold {
  task: TaskName;
  /** null: the task's runs are left out (leftOut says why), and so is its gold. */
  file: string | null;
  loadedAt: string;
  /** Gold documents of background articles: the boards leave them out, so a run scored against this file counts them. */
  backgroundDocuments: string[];
}

export interface LeftOutRun {
  task: TaskName;
  run: string;
  kind: 'R' | 'S';
  team: string;
  why: string;
}

export interface RunsManifest {
  challenge: string;
  exportedAt: string;
  tasks: TaskName[];
  runs: ManifestRun[];
  gold: ManifestGold[];
  leftOut: LeftOutRun[];
}

/** One run to write: its manifest entry, and how to read its files when its turn comes. */
interface PlannedRun {
  entry: ManifestRun;
  files(): Promise<ArchiveFile[]>;
}

/** A task of the export: its board, its runs (unless its form is none), its gold. */
interface PlannedTask {
  task: TaskName;
  form: RunFileForm | undefined;
  board: Leaderboard;
  /** The board stored at the close, when the challenge has one for the task. */
  official: Leaderboard | null;
  runs: PlannedRun[];
  gold: ManifestGold;
}

/** The columns of scores.tsv before `metric` and `value`, each with how a row fills it (a new field of the rows: one line here). */
const ROW_COLUMNS: ReadonlyArray<readonly [string, (row: LeaderboardRow) => Cell]> = [
  ['run', (r) => r.run],
  ['kind', (r) => r.kind],
  ['team', (r) => r.team],
  ['server', (r) => r.server],
  ['baseline', (r) => r.baseline === true],
  ['rank', (r) => r.rank],
  ['postChallenge', (r) => r.postChallenge],
];

type Cell = string | number | boolean | null | undefined;

/** Free text in a TSV cell must not break the table; null and undefined are empty. */
const cell = (value: Cell): string => (value === null || value === undefined ? '' : String(value).replace(/[\t\r\n]+/g, ' '));

/** Every row of every board, one line per flattened metric (a row that could not be scored: one `error` line). */
function scoresTsv(boards: readonly Leaderboard[]): string {
  const lines = [['task', ...ROW_COLUMNS.map(([name]) => name), 'metric', 'value'].join('\t')];
  for (const board of boards) {
    for (const row of board.runs) {
      const fields = [board.task, ...ROW_COLUMNS.map(([, of]) => cell(of(row)))];
      const metrics = row.error ? new Map([['error', row.error]]) : flattenMetrics(row.metrics);
      for (const [metric, value] of metrics) lines.push([...fields, metric, cell(value)].join('\t'));
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

/** The task's offline runs, each read when written. */
async function offlineRuns(sources: RunsExportSources, challenge: Challenge, task: TaskName, form: RunFileForm): Promise<PlannedRun[]> {
  const heads: OfflineRunHead[] = await sources.runs.heads(challenge.id, task);
  return heads.map((head) => {
    const base = `runs/${task}/${segment(head.name)}`;
    const entry: ManifestRun = {
      task,
      run: head.name,
      kind: 'R',
      team: head.team,
      server: null,
      serverName: null,
      baseline: head.baseline,
      file: pathOf(form, base),
      columns: form === 'tsv' ? (head.columns ?? 'rank,confidence') : null,
      time: head.uploadedAt.toISOString(),
      postChallenge: head.postChallenge,
    };
    const files = async () => {
      const body = await sources.runs.body(head.id);
      return body === null ? [] : storedFiles(form, base, body);
    };
    return { entry, files };
  });
}

/** The online runs of the servers registered for the task, each read when written. */
async function onlineRuns(sources: RunsExportSources, challenge: Challenge, task: TaskName, form: RunFileForm): Promise<PlannedRun[]> {
  const servers = (await sources.servers.listByChallenge(challenge.id)).filter((s) => s.tasks.includes(task));
  const times = await sources.answers.onlineAnswerTimes(
    servers.map((s) => s.id),
    task,
  );
  return servers.map((server) => {
    const base = `runs/${task}/${segment(server.runName)}`;
    const entry: ManifestRun = {
      task,
      run: server.runName,
      kind: 'S',
      team: server.team,
      server: server.id,
      serverName: server.name,
      baseline: false,
      file: pathOf(form, base),
      columns: onlineColumns(form),
      time: times.get(server.id)?.toISOString() ?? null,
      postChallenge: false,
    };
    const files = async () => {
      // The scored articles only, as the board reads the run.
      const answers = await sources.answers.onlineAnswers(server.id, task, { scoredOnly: true });
      return onlineFiles(
        form,
        base,
        onlineRun(task, answers),
        answers.map((a) => a.doc),
      );
    };
    return { entry, files };
  });
}

/** A task with gold: its board, runs and gold entry; a task whose runs have no form lists its board's runs as left out. */
async function planTask(
  sources: RunsExportSources,
  challenge: Challenge,
  task: TaskName,
  loadedAt: Date,
): Promise<{ planned: PlannedTask; leftOut: LeftOutRun[] }> {
  const form = runFileForm(task);
  const board = await sources.board(challenge, task);
  const official = await sources.officialBoard(challenge, task);
  const gold: ManifestGold = {
    task,
    file: form ? pathOf(form, `gold/${task}`) : null,
    loadedAt: loadedAt.toISOString(),
    backgroundDocuments: await sources.background(challenge, task),
  };
  if (!form) {
    const why = notWrittenReason(task);
    const leftOut = board.runs
      .filter((r) => r.kind !== 'C')
      .map((r) => ({ task, run: r.run, kind: r.kind as 'R' | 'S', team: r.team, why }));
    return { planned: { task, form, board, official, runs: [], gold }, leftOut };
  }
  const runs = [...(await offlineRuns(sources, challenge, task, form)), ...(await onlineRuns(sources, challenge, task, form))];
  // A server's run is post-challenge as its live row says (an answer or its registration after the close).
  const late = new Set(board.runs.filter((r) => r.postChallenge).map((r) => r.run));
  for (const run of runs) run.entry.postChallenge = late.has(run.entry.run);
  return { planned: { task, form, board, official, runs, gold }, leftOut: [] };
}

/**
 * Reads what the export needs besides the files (the boards, the runs' headings), then
 * returns the writer of the archive's entries. No task with gold: 404 no_gold.
 */
export async function planRunsExport(sources: RunsExportSources, challenge: Challenge): Promise<(add: AddArchiveFile) => Promise<void>> {
  const tasks: PlannedTask[] = [];
  const leftOut: LeftOutRun[] = [];
  for (const task of challenge.tasks) {
    const heading = await sources.gold.goldHeading(challenge.id, task);
    if (!heading) continue;
    const planned = await planTask(sources, challenge, task, heading.loadedAt);
    tasks.push(planned.planned);
    leftOut.push(...planned.leftOut);
  }
  if (tasks.length === 0)
    throw new ApiError(
      'no_gold',
      `no gold standard is loaded for any task of challenge "${challenge.slug}" (${challenge.tasks.join(', ')}), and the export holds the runs of the tasks with one; the organiser loads it with PUT /api/challenges/${challenge.slug}/gold/<task>`,
    );
  return async (add) => await writeArchive(sources, challenge, tasks, leftOut, add);
}

/** The entries: each run's files, each gold, scores.tsv, manifest.json. */
async function writeArchive(
  sources: RunsExportSources,
  challenge: Challenge,
  tasks: readonly PlannedTask[],
  leftOut: LeftOutRun[],
  add: AddArchiveFile,
): Promise<void> {
  const exportedAt = new Date().toISOString();
  const runs: ManifestRun[] = [];
  for (const { runs: planned } of tasks) {
    for (const run of planned) {
      let files: ArchiveFile[];
      try {
        files = await run.files();
      } catch (error) {
        // A run the form cannot hold (a mention type with a space): named, the others still written.
        if (!(error instanceof FormatError)) throw error;
        leftOut.push({ task: run.entry.task, run: run.entry.run, kind: run.entry.kind, team: run.entry.team, why: error.message });
        continue;
      }
      for (const file of files) await add(file);
      runs.push(run.entry);
    }
  }
  for (const { task, form } of tasks) {
    if (!form) continue;
    const stored = await sources.gold.gold(challenge.id, task);
    for (const file of stored ? storedFiles(form, `gold/${task}`, stored.body) : []) await add(file);
  }
  await add({ name: 'scores.tsv', content: scoresTsv(tasks.map((t) => t.board)) });
  // The official results, as stored at the close, beside the live ones (once the challenge has closed).
  const official = tasks.flatMap((t) => (t.official ? [t.official] : []));
  if (official.length > 0) await add({ name: 'scores-official.tsv', content: scoresTsv(official) });
  const manifest: RunsManifest = {
    challenge: challenge.slug,
    exportedAt,
    tasks: tasks.map((t) => t.task),
    runs,
    gold: tasks.map((t) => t.gold),
    leftOut,
  };
  await add({ name: 'manifest.json', content: `${JSON.stringify(manifest, null, 2)}\n` });
}
