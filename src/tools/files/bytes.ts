// Byte counts as people read them, for messages to the model.

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** "512 bytes", "8 KiB", "1.5 MiB": at most one decimal, none when it is zero. */
export function formatBytes(count: number): string {
  if (count < 1024) return `${count} ${count === 1 ? 'byte' : 'bytes'}`;
  let value = count / 1024;
  let unit: string = UNITS[0];
  for (const next of UNITS.slice(1)) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${unit}`;
}
