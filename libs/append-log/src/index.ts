export { AppendLog, type SnapshotOwner } from './append-log';
export { LoggedIndex, type LoggedMemory } from './logged-index';
