// `npm run docs:links`: every relative link and anchor in the Markdown files must resolve
// (remark-validate-links reads the files and their headings; it needs no network).
import remarkValidateLinks from 'remark-validate-links';

export default {
  plugins: [[remarkValidateLinks, { repository: false }]],
};
