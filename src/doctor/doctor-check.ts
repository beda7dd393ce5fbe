/** One line of the `holdpoint doctor` checklist. */
export interface DoctorCheck {
  /** What was checked, e.g. `Redis eviction policy`. */
  name: string;
  /** False fails the doctor run (exit 1). */
  ok: boolean;
  /** What was found, one line, never a secret. */
  detail: string;
  /** How to fix a failure (or act on a warning); may span several lines. */
  fix?: string;
  /** Passed, but could not be verified fully (printed with ⚠, does not fail the run). */
  warning?: boolean;
}

/** Marks of the checklist. */
export const CHECK_MARKS = { ok: '✔', fail: '✖', warning: '⚠' } as const;

/**
 * The checklist text: one `✔|⚠|✖ <name>: <detail>` line per check, the fix indented under a failure or
 * warning (`    fix: <text>`, or `    fix:` and one indented line per line of a multi-line fix), and a summary line (`All 6 checks passed.` or `2 of 6 checks failed.`).
 */
export function formatChecklist(checks: readonly DoctorCheck[]): string {
  const lines: string[] = [];
  for (const check of checks) {
    const mark = !check.ok ? CHECK_MARKS.fail : check.warning ? CHECK_MARKS.warning : CHECK_MARKS.ok;
    lines.push(`${mark} ${check.name}: ${check.detail}`);
    if (check.fix !== undefined && (!check.ok || check.warning)) {
      const fixLines = check.fix.split('\n');
      if (fixLines.length === 1) lines.push(`    fix: ${check.fix}`);
      else lines.push('    fix:', ...fixLines.map((line) => `      ${line}`));
    }
  }
  const failed = checks.filter((check) => !check.ok).length;
  lines.push(
    failed === 0
      ? `All ${checks.length} check${checks.length === 1 ? '' : 's'} passed.`
      : `${failed} of ${checks.length} check${checks.length === 1 ? '' : 's'} failed.`,
  );
  return `${lines.join('\n')}\n`;
}
