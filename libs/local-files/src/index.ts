export { LocalFilesStore } from './local-files.store';
