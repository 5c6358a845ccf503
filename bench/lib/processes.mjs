// Server processes for the benchmark: spawn them, learn their port, read their memory, stop them (by their PID only).

import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const SERVERS = fileURLToPath(new URL('../servers/', import.meta.url));

/** `node <bench/servers/<name>.mjs> --transport <t> --tools <n>`, with extra node flags (such as --cpu-prof) first. */
export function serverCommand(name, transport, tools, nodeFlags = []) {
  return [
    process.execPath,
    [...nodeFlags, `${SERVERS}${name}.mjs`, '--transport', transport, '--tools', String(tools)],
  ];
}

/** Starts an HTTP server and waits for the `port=<n>` line it prints once listening (60 s at most). */
export async function startHttpServer(name, tools, nodeFlags = [], env = {}) {
  const [command, args] = serverCommand(name, 'http', tools, nodeFlags);
  const child = spawn(command, [...args, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    if (stderr.length < 4096) stderr += chunk;
  });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s\n${stderr}`)), 60_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /port=(\d+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before listening\n${stderr}`));
    });
  });
  return { name, tools, child, pid: child.pid, url: `http://127.0.0.1:${port}/mcp` };
}

/** Starts a stdio server with pipes on stdin and stdout. */
export function startStdioServer(name, tools, nodeFlags = []) {
  const [command, args] = serverCommand(name, 'stdio', tools, nodeFlags);
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  return { name, tools, child, pid: child.pid };
}

/** Stops a process we started (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Resident set size of a process in MiB (Linux /proc, or ps elsewhere). */
export function rssMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (match !== null) return Number(match[1]) / 1024;
  } catch {
    // not Linux: fall through to ps
  }
  const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  return kb / 1024;
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time (user + system, seconds) a process has used so far, from /proc (Linux); undefined elsewhere. Divided by
 * the answers of a measurement, it gives the server's CPU cost per request, which the load generator's speed and
 * the VM's scheduling affect far less than requests per second do.
 */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // the name may hold spaces: skip past it
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime and stime (fields 14 and 15)
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every 50 ms until stopped; returns the peak. */
export function rssPeak(pid) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // the process ended; keep the peak we saw
    }
  }, 50);
  return () => {
    clearInterval(timer);
    return peak;
  };
}
