export { AppendLog, type SnapshotOwner } from './append-log';
