export { AppendLog } from './append-log';
