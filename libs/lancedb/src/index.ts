export * from './company-tables';
