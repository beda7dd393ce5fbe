/** Issues found in `ask_question` arguments, and the collector the decoder fills. */

/**
 * One problem with the arguments, aimed at the model.
 * - `path`: the field, e.g. `questions[0].options[1].label`; `""` for the arguments as a whole.
 * - `rule`: `json` | `type` | `required` | `blank` | `maxLength` | `minItems` | `maxItems` | `unique` | `internal`.
 * - `limit`: the cap for `maxLength` (code points) and `minItems`/`maxItems` (items).
 * - `actual`: the measured length or count (number), or the JSON type / a short preview of the value (string).
 * - `message`: one self-contained sentence that names the path, the limit and the actual value.
 */
export interface AskIssue {
  path: string;
  rule: string;
  limit?: number;
  actual?: string | number;
  message: string;
}

/** At most this many issues are reported per call. */
export const MAX_ISSUES = 20;
/** At most this many ignored keys are listed per call. */
export const MAX_IGNORED_KEYS = 50;

/** Collects issues and ignored keys during one decode, within {@link MAX_ISSUES} and {@link MAX_IGNORED_KEYS}. */
export class IssueCollector {
  readonly issues: AskIssue[] = [];
  readonly ignoredKeys: string[] = [];

  add(issue: AskIssue): void {
    if (this.issues.length < MAX_ISSUES) {
      this.issues.push(issue);
    }
  }

  ignore(path: string): void {
    if (this.ignoredKeys.length < MAX_IGNORED_KEYS && !this.ignoredKeys.includes(path)) {
      this.ignoredKeys.push(path);
    }
  }
}
