// Helpers of the tool-output corpus systems (tool-output-systems*.mjs): templates and the systems' time formats.

/** A template: severity (ground truth), the level word the system writes, the text, fillers for its `<*>`. */
export function T(severity, template, fills = [], opts = {}) {
  return {
    severity,
    template,
    ...opts,
    emit: (r) => {
      let k = 0;
      const text = template.replace(/<\*>/g, () => {
        const f = fills[k++];
        return f ? f(r) : String(r.int(1, 99999));
      });
      return opts.after ? [text, ...opts.after(r)] : text;
    },
  };
}
export const I = (template, fills, opts) => T('info', template, fills, opts);
export const W = (template, fills, opts) => T('warn', template, fills, opts);
export const E = (template, fills, opts) => T('error', template, fills, opts);

export const pad = (n, w = 2) => String(n).padStart(w, '0');
export const d = (t) => new Date(t);
export const iso = (t, sep = ' ', frac = ',') => { const x = d(t); return `${x.getUTCFullYear()}-${pad(x.getUTCMonth() + 1)}-${pad(x.getUTCDate())}${sep}${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}:${pad(x.getUTCSeconds())}${frac}${pad(x.getUTCMilliseconds(), 3)}`; };
export const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const DAY = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
export const syslogTime = (t) => { const x = d(t); return `${MON[x.getUTCMonth()]} ${String(x.getUTCDate()).padStart(2, ' ')} ${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}:${pad(x.getUTCSeconds())}`; };
export const hms = (x) => `${pad(x.getUTCHours())}:${pad(x.getUTCMinutes())}:${pad(x.getUTCSeconds())}`;

export const blk = (r) => `blk_${r.rand() < 0.5 ? '-' : ''}${r.int(1e9, 9e9)}${r.int(1e8, 9e8)}`;
export const ipPort = (r) => `${r.ip()}:${r.int(1024, 65535)}`;
export const javaStack = (cls, msg, frames) => (r) => [`${cls}: ${msg}`, ...frames.map((f) => `\tat ${f}(${f.split('.').at(-2)}.java:${r.int(40, 900)})`)];

