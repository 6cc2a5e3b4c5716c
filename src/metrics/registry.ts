/**
 * A small Prometheus registry: counters, gauges read at scrape time, and histograms with fixed
 * buckets, rendered in the text exposition format (version 0.0.4). Label values are escaped; callers
 * keep label sets bounded (known routes and tool names only), so memory stays flat.
 */

type Labels = Record<string, string>;

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  return entries.length === 0 ? "" : `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
}

interface Metric {
  render(): string[];
}

export class Counter implements Metric {
  private readonly values = new Map<string, number>();
  constructor(readonly name: string, readonly help: string) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelText(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`, ...[...this.values].map(([labels, value]) => `${this.name}${labels} ${value}`)];
  }
}

/** A gauge whose samples are read when scraped, from whatever owns the number. */
export class Gauge implements Metric {
  constructor(readonly name: string, readonly help: string, private readonly read: () => { labels?: Labels; value: number }[]) {}
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, ...this.read().map(({ labels, value }) => `${this.name}${labelText(labels ?? {})} ${value}`)];
  }
}

export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram implements Metric {
  private readonly series = new Map<string, { counts: number[]; sum: number; count: number; labels: Labels }>();
  constructor(readonly name: string, readonly help: string, private readonly buckets = latencyBuckets) {}
  observe(labels: Labels, seconds: number): void {
    const key = labelText(labels);
    let entry = this.series.get(key);
    if (!entry) this.series.set(key, (entry = { counts: this.buckets.map(() => 0), sum: 0, count: 0, labels }));
    for (let i = 0; i < this.buckets.length; i++) if (seconds <= this.buckets[i]!) entry.counts[i]!++;
    entry.sum += seconds;
    entry.count++;
  }
  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { counts, sum, count, labels } of this.series.values()) {
      this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${counts[i]}`));
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: "+Inf" })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines;
  }
}

export class MetricsRegistry {
  private readonly metrics: Metric[] = [];
  /** Gauges that need a round trip (e.g. shared session count) refresh here before rendering. */
  private readonly refreshers: (() => Promise<void>)[] = [];

  register<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }

  onScrape(refresh: () => Promise<void>): void {
    this.refreshers.push(refresh);
  }

  async render(): Promise<string> {
    await Promise.all(this.refreshers.map((refresh) => refresh().catch(() => undefined)));
    return `${this.metrics.flatMap((metric) => metric.render()).join("\n")}\n`;
  }
}
