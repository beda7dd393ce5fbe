import { parseArgs } from 'node:util';
import type { CliIo } from './cli-io.js';
import type { CliCommand } from './commands.js';

/** Exit codes of `holdpoint ask`, so a shell script can gate on a person: `holdpoint ask … && ./deploy.sh`. */
export const ASK_EXIT = {
  /** Every question was answered by a person. */
  answered: 0,
  /** Anything else: the API unreachable, a refused token, a server error. */
  failed: 1,
  /** The ask was invalid (the precise error is on stderr); nothing was posted. */
  invalid: 2,
  /** Nobody answered in time: at least one question resolved by assumption. */
  assumed: 3,
  /** The ask was canceled. */
  canceled: 4,
} as const;

/** How long `holdpoint ask` keeps looking again while the server cannot be reached during the wait, in ms. */
const RECONNECT_FOR_MS = 5 * 60 * 1000;

const USAGE = `holdpoint ask --channel C… | --user U… [--thread TS] --question "…" [--header "…"] --option "…" [--option "…" …]
                 [--multi] [--timeout 10m] [--json]
holdpoint ask [--channel C… | --user U…] [--timeout 10m] [--json] FILE|-   (a POST /v1/asks body, or its questions)
holdpoint ask cancel ID
Needs HOLDPOINT_URL (e.g. http://localhost:3000) and HOLDPOINT_TOKEN (one of API_TOKENS).`;

interface AskViewBody {
  id?: string;
  status?: string;
  answers?: Array<{
    header?: string | null;
    question?: string;
    status?: string;
    selected?: string[];
    other?: string | null;
    answeredBy?: string | null;
  }>;
  error?: { code?: string; message?: string; path?: string };
}

/**
 * `holdpoint ask`: asks people in Slack through the ask API and waits for the answer. Prints the ask's id on
 * stderr as soon as it is posted, then the answers (or the final JSON with `--json`) on stdout. Exit codes:
 * {@link ASK_EXIT}. `holdpoint ask cancel ID` cancels one (0, or 1 when it could not).
 * @param env where `HOLDPOINT_URL` and `HOLDPOINT_TOKEN` come from (the process environment by default)
 */
export function askCommand(env: Readonly<Record<string, string | undefined>> = process.env): CliCommand {
  return {
    summary:
      'Ask people in Slack from a script and wait: exit 0 answered, 3 assumed (timeout), 4 canceled, 2 invalid.',
    usage: USAGE,
    run: (argv, io) => runAsk(argv, io, env),
  };
}

async function runAsk(
  argv: readonly string[],
  io: CliIo,
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const url = env.HOLDPOINT_URL?.replace(/\/+$/, '');
  const token = env.HOLDPOINT_TOKEN;
  if (!url || !token) {
    io.stderr(
      'holdpoint ask: set HOLDPOINT_URL (e.g. http://localhost:3000) and HOLDPOINT_TOKEN (one of API_TOKENS)\n',
    );
    return ASK_EXIT.failed;
  }
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    io.stderr(
      `holdpoint ask: HOLDPOINT_URL=${url} is not an http:// or https:// URL (e.g. http://localhost:3000)\n`,
    );
    return ASK_EXIT.failed;
  }
  const api = async (method: string, path: string, body?: unknown) => {
    let response: Response;
    try {
      response = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      // The server could not be reached (refused, reset, a bad HOLDPOINT_URL): status 0.
      const cause =
        error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      const body: AskViewBody = { error: { message: `cannot reach ${url}: ${cause}` } };
      return { status: 0, body };
    }
    const text = await response.text();
    let parsed: AskViewBody = {};
    try {
      parsed = text ? (JSON.parse(text) as AskViewBody) : {};
    } catch {
      parsed = { error: { message: text.slice(0, 200) } };
    }
    return { status: response.status, body: parsed };
  };

  if (argv[0] === 'cancel') {
    const id = argv[1];
    if (!id || argv.length > 2) {
      io.stderr(`Usage: ${USAGE}\n`);
      return ASK_EXIT.invalid;
    }
    const canceled = await api('DELETE', `/v1/asks/${encodeURIComponent(id)}`);
    if (canceled.status === 200) {
      io.stdout(`canceled ${id}\n`);
      return 0;
    }
    io.stderr(`holdpoint ask cancel: ${canceled.status} ${canceled.body.error?.message ?? ''}\n`);
    return ASK_EXIT.failed;
  }

  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        channel: { type: 'string' },
        user: { type: 'string' },
        thread: { type: 'string' },
        question: { type: 'string' },
        header: { type: 'string' },
        option: { type: 'string', multiple: true },
        multi: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
      },
    }));
  } catch (error) {
    io.stderr(`holdpoint ask: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return ASK_EXIT.invalid;
  }
  const usage = (problem: string): number => {
    io.stderr(`holdpoint ask: ${problem}\n${USAGE}\n`);
    return ASK_EXIT.invalid;
  };
  if (values.channel && values.user) return usage('give --channel or --user, not both');
  if (positionals.length > 1) return usage(`one FILE at most (got ${positionals.join(', ')})`);
  const questionFlags = ['question', 'header', 'option', 'multi'].filter(
    (name) => values[name] !== undefined,
  );
  if (positionals.length > 0 && questionFlags.length > 0)
    return usage(`--${questionFlags.join(', --')} cannot be used with a FILE: put the questions in the file`);
  // A FILE (or `-`) holds a `POST /v1/asks` body (`channel`, `timeout`, `answerers`, `metadata`, …
  // besides `questions`) or just the `questions` array; flags win over what it sets.
  let base: Record<string, unknown> = {};
  if (positionals.length > 0) {
    const source = positionals[0] ?? '-';
    let text: string;
    try {
      text = source === '-' ? await io.readStdin() : await io.readFile(source);
    } catch (error) {
      io.stderr(
        `holdpoint ask: cannot read ${source}: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return ASK_EXIT.invalid;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
    } catch {
      io.stderr(`holdpoint ask: ${source} is not JSON\n`);
      return ASK_EXIT.invalid;
    }
    base =
      parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && 'questions' in parsed
        ? (parsed as Record<string, unknown>)
        : { questions: parsed };
  } else {
    base = {
      questions: [
        {
          question: values.question,
          ...(values.header ? { header: values.header } : {}),
          ...(values.option ? { options: values.option } : {}),
          ...(values.multi ? { multiSelect: true } : {}),
        },
      ],
    };
  }
  const target = values.channel ? { channel: values.channel } : values.user ? { user: values.user } : {};
  const { channel: _channel, user: _user, ...rest } = base;
  const created = await api('POST', '/v1/asks', {
    ...(values.channel || values.user ? rest : base),
    ...target,
    ...(values.thread ? { threadTs: values.thread } : {}),
    ...(values.timeout ? { timeout: values.timeout } : {}),
  });
  if (created.status === 400) {
    io.stderr(`${created.body.error?.message ?? 'invalid ask'}\n`);
    return ASK_EXIT.invalid;
  }
  if (created.status !== 201 && created.status !== 200) {
    const reason =
      created.body.error?.message ??
      (created.status === 404
        ? `no ask API at ${url}/v1/asks: check HOLDPOINT_URL, and that the server has API_TOKENS set`
        : 'no reason given');
    io.stderr(`holdpoint ask: the API answered ${created.status}: ${reason}\n`);
    return ASK_EXIT.failed;
  }
  const id = created.body.id ?? '';
  io.stderr(`asked: ${id} (holdpoint ask cancel ${id})\n`);
  let view = created.body;
  // The ask does not depend on this connection: while the server cannot be reached (a restart), look
  // again every second, for up to RECONNECT_FOR_MS.
  let unreachableSince: number | null = null;
  while (view.status === 'open') {
    const polled = await api('GET', `/v1/asks/${encodeURIComponent(id)}?wait=60`);
    if (polled.status === 0 || polled.status >= 500) {
      unreachableSince ??= Date.now();
      if (Date.now() - unreachableSince > RECONNECT_FOR_MS) {
        io.stderr(
          `holdpoint ask: gave up waiting for ${id}: ${polled.body.error?.message ?? polled.status}\n`,
        );
        return ASK_EXIT.failed;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    unreachableSince = null;
    if (polled.status !== 200) {
      io.stderr(
        `holdpoint ask: the API answered ${polled.status} while waiting: ${polled.body.error?.message ?? ''}\n`,
      );
      return ASK_EXIT.failed;
    }
    view = polled.body;
  }
  if (values.json) io.stdout(`${JSON.stringify(view)}\n`);
  else {
    for (const answer of view.answers ?? []) {
      const picked =
        [...(answer.selected ?? []), ...(answer.other ? [answer.other] : [])].join(', ') || '(nothing)';
      const who = answer.status === 'answered' ? `answered by ${answer.answeredBy}` : answer.status;
      io.stdout(`${answer.header ?? answer.question}: ${picked} (${who})\n`);
    }
  }
  if (view.status === 'canceled') return ASK_EXIT.canceled;
  return (view.answers ?? []).some((answer) => answer.status !== 'answered')
    ? ASK_EXIT.assumed
    : ASK_EXIT.answered;
}
