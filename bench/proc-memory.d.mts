// Types of bench/proc-memory.mjs for its unit test.
export interface Mapping { start: bigint; end: bigint; perms: string; name: string; rssKb: number }
export interface ResidentByKind { arenas: number; arenaHeaps: number; brk: number; anon: number; files: number }
export function parseSmaps(text: string): Mapping[];
export function residentByKind(maps: Mapping[]): ResidentByKind;
export function descriptorKind(link: string): 'sockets' | 'pipes' | 'anon' | 'files';
export function descriptorsByKind(pid: number): { sockets: number; pipes: number; anon: number; files: number };
export function memoryMap(pid: number): { text: string; kinds: ResidentByKind };
export function acceptedConnections(tcpText: string, port: number): { established: number; closeWait: number };
export function connectionsOnPort(port: number): { established: number; closeWait: number };
