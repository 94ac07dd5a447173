export { AppendLog, type SnapshotOwner } from './append-log';
export { DEFAULT_ERASING, LoggedIndex, type ErasingSchedule, type LoggedMemory } from './logged-index';
