/**
 * The curated skills lexicon: tools, technologies and methods a CV can list, across the
 * occupations CVs come from, each written as it should be shown. CV understanding reads a CV's
 * technical stack from it; dense search never "corrects" one of its words as a typo.
 */
export const SKILLS: readonly string[] = [
  // software
  'Java', 'JavaScript', 'TypeScript', 'Python', 'C++', 'C#', '.NET', 'ASP.NET', 'Go', 'Ruby', 'PHP', 'Scala', 'Kotlin', 'Swift',
  'Rust', 'R', 'MATLAB', 'SQL', 'T-SQL', 'PL/SQL', 'NoSQL', 'HTML', 'CSS', 'React', 'Angular', 'Vue', 'Node.js', 'Redux', 'jQuery',
  'Bootstrap', 'Spring', 'Spring Boot', 'Hibernate', 'Django', 'Flask', 'Rails', 'Laravel', 'REST', 'GraphQL', 'Microservices',
  'Docker', 'Kubernetes', 'Terraform', 'Ansible', 'Jenkins', 'Git', 'GitHub', 'Jira', 'Maven', 'Kafka', 'RabbitMQ', 'Redis',
  'MongoDB', 'MySQL', 'PostgreSQL', 'Oracle', 'SQL Server', 'Elasticsearch', 'Hadoop', 'Spark', 'Tableau', 'Power BI',
  'Machine Learning', 'Deep Learning', 'TensorFlow', 'PyTorch', 'scikit-learn', 'Pandas', 'NumPy', 'NLP', 'AWS', 'Azure',
  'Google Cloud', 'Linux', 'Unix', 'Windows Server', 'Active Directory', 'VMware', 'Cisco', 'TCP/IP', 'DNS', 'VPN', 'Firewall',
  'Agile', 'Scrum', 'CI/CD', 'DevOps', 'Selenium', 'JUnit', 'Unit Testing',
  // business tools and methods
  'Microsoft Office', 'Excel', 'Word', 'PowerPoint', 'Outlook', 'Access', 'SharePoint', 'Visio', 'QuickBooks', 'SAP', 'Oracle Financials',
  'PeopleSoft', 'Salesforce', 'CRM', 'ERP', 'Hyperion', 'Peachtree', 'Sage', 'ADP', 'Workday', 'Kronos', 'Lean', 'Six Sigma',
  'General Ledger', 'Accounts Payable', 'Accounts Receivable', 'Payroll', 'Budgeting', 'Forecasting', 'GAAP', 'Auditing',
  'Financial Reporting', 'Variance Analysis', 'Reconciliation', 'Project Management', 'PMP',
  // marketing and media
  'SEO', 'SEM', 'Google Analytics', 'Google Ads', 'Social Media', 'Content Strategy', 'Email Marketing', 'WordPress', 'HubSpot',
  'Adobe Photoshop', 'Adobe Illustrator', 'InDesign', 'Premiere Pro', 'Final Cut Pro', 'Figma',
  // health, hospitality, trades and other fields
  'HIPAA', 'EMR', 'EHR', 'Epic', 'CPR', 'Medical Billing', 'Medical Coding', 'ICD-10', 'Patient Care', 'ServSafe', 'Catering',
  'Menu Development', 'POS', 'AutoCAD', 'SolidWorks', 'Revit', 'CNC', 'HVAC', 'OSHA', 'FAA', 'Aircraft Maintenance', 'Call Center',
  'Customer Service', 'Cash Handling', 'Merchandising', 'Inventory Management', 'Curriculum Development', 'Lesson Planning',
  'Classroom Management', 'Recruiting', 'Onboarding', 'HRIS', 'Contract Negotiation', 'Litigation', 'Legal Research',
];
