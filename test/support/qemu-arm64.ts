// Running the linux-arm64 agent bundle on this x64 machine (issue 46 item 3): Debian's
// qemu-user-static emulates arm64 programs, and Debian's libc6-arm64-cross holds the arm64
// dynamic loader and libc they need (QEMU_LD_PREFIX). The kernel runs an arm64 ELF with qemu
// once binfmt_misc has a handler for it: the machine-wide binfmt_misc is mounted when it is not
// (ARCHITECTURE.md: it was not, until this test) and a handler registered with flag F (the
// kernel opens qemu at registration, so it works in every mount and network namespace), then
// removed again. Machine-wide because the agent needs raw sockets in a network namespace of the
// init user namespace: a user namespace's own binfmt_misc would hold the handler, but a process
// in it has no CAP_NET_RAW there. Where no handler can be registered, `explicit` says so and the
// test runs the bundle's Node through qemu-aarch64-static itself.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const qemuAarch64 = '/usr/bin/qemu-aarch64-static';
/** Where libc6-arm64-cross puts the arm64 loader (lib/ld-linux-aarch64.so.1) and libc. */
export const aarch64Prefix = '/usr/aarch64-linux-gnu';
/** The environment an emulated arm64 program needs (qemu reads it). */
export const qemuEnv = { QEMU_LD_PREFIX: aarch64Prefix };

const binfmt = '/proc/sys/fs/binfmt_misc';
const handlerName = 'hopwatch-aarch64';
// Debian's /usr/share/binfmts/qemu-aarch64: a little-endian 64-bit ELF executable of machine 0xb7 (aarch64).
const magic = '\\x7f\\x45\\x4c\\x46\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00';
const mask = '\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff';
const magicHex = '7f454c460201010000000000000000000200b700';

export interface Arm64Emulation {
  /** binfmt: arm64 programs run as they are; explicit: only through qemu-aarch64-static. */
  mode: 'binfmt' | 'explicit';
  /** Why not binfmt (explicit mode). */
  reason?: string;
  /** Removes the handler this registered (none when one was there already). */
  release(): void;
}

/** What is missing for emulating arm64 here (the Debian packages test/setup.sh installs), or null. */
export function arm64EmulationMissing(): string | null {
  if (!existsSync(qemuAarch64)) return `${qemuAarch64} is missing (Debian: apt-get install qemu-user-static; test/setup.sh installs it)`;
  if (!existsSync(join(aarch64Prefix, 'lib/ld-linux-aarch64.so.1'))) return `${aarch64Prefix}/lib/ld-linux-aarch64.so.1 is missing (Debian: libc6-arm64-cross)`;
  return null;
}

function enabledAarch64Handler(): string | undefined {
  for (const name of readdirSync(binfmt)) {
    if (name === 'register' || name === 'status') continue;
    const text = readFileSync(join(binfmt, name), 'utf8');
    if (/^enabled$/m.test(text) && text.includes(`magic ${magicHex}`)) return name;
  }
  return undefined;
}

/** Lets the kernel run arm64 programs with qemu (as root), or says why it cannot. */
export function emulateArm64(): Arm64Emulation {
  const explicit = (reason: string): Arm64Emulation => ({ mode: 'explicit', reason, release: () => {} });
  try {
    if (!existsSync(join(binfmt, 'register'))) execFileSync('mount', ['-t', 'binfmt_misc', 'binfmt_misc', binfmt], { stdio: 'pipe' });
    if (readFileSync(join(binfmt, 'status'), 'utf8').trim() !== 'enabled') return explicit('binfmt_misc is disabled on this machine');
    if (enabledAarch64Handler()) return { mode: 'binfmt', release: () => {} };
    writeFileSync(join(binfmt, 'register'), `:${handlerName}:M::${magic}:${mask}:${qemuAarch64}:F`);
    return {
      mode: 'binfmt',
      release: () => {
        try {
          writeFileSync(join(binfmt, handlerName), '-1');
        } catch {
          /* removed already */
        }
      },
    };
  } catch (err) {
    return explicit(`binfmt_misc could not be mounted or given a handler: ${(err as Error).message.split('\n')[0]}`);
  }
}
