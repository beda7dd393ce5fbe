/**
 * Deterministic text that reads (to a compressor) like an on-call conversation: words drawn unevenly from
 * an incident vocabulary, with numbers and pod names between them. A phrase repeated over and over would
 * deflate to almost nothing and flatter the store, which deflates large message chunks; this deflates about
 * as English does (JSON of 2.7 KB of it to 46%, of 21 KB to 38% at zlib level 1; this README's text: 43% and
 * 40%).
 */
const VOCABULARY =
  `the a to of and in is on for that it with as was be at by this from or are an not we but have you
deploy payments-api canary rollback hotfix forward error rate latency p99 ms timeout ledger service pod node
cluster migration database replica primary lag queue worker job retry backoff alert page on-call incident
postmortem dashboard metric log trace span request response status code 500 502 503 504 upstream downstream
config flag feature release version build pipeline merge branch commit revert patch schema index query lock
deadlock connection pool memory cpu disk throttled scaled autoscaler region zone failover traffic shift
percent customers checkout cart orders refunds invoices webhook retries duplicate idempotency key redis cache
miss hit ttl evicted kafka partition consumer offset lagging broker restart healthy unhealthy probe readiness
liveness container image tag rollout paused resumed approved approve deny owner team channel thread should
could would will can may might now then after before since until while because so if when which who what
why how looks seems appears confirmed suspect likely root cause mitigation action item follow-up ticket`
    .split(/\s+/)
    .filter(Boolean);

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `chars` characters of conversation-like text; the same `seed` gives the same text. */
export function prose(chars: number, seed: number): string {
  const next = seeded(seed);
  let text = '';
  while (text.length < chars) {
    const pick = next();
    if (pick < 0.06) text += `${Math.floor(next() * 10_000)} `;
    else if (pick < 0.08) text += `pod-${Math.floor(next() * 0xfffff).toString(16)} `;
    else {
      const word = VOCABULARY[Math.floor(VOCABULARY.length * next() * next())];
      const mark = next() < 0.08 ? '.' : next() < 0.1 ? ',' : '';
      text += `${word}${mark} `;
    }
  }
  return text.slice(0, chars);
}
