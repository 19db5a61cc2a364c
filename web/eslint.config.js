import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A feature may import lib/ and components/, never another feature or app/: what two features
// share moves to lib/ or components/, and app/ composes the features into pages. lib/ and
// components/ import neither.
const restrict = (files, group, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
});
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const boundaries = [
  restrict(['src/lib/**', 'src/components/**'], ['@/features/*', '@/app/*', '../features/*', '../app/*'], 'lib/ and components/ may not import a feature or app/.'),
  ...features.flatMap((feature) => {
    const group = ['@/features/*', `!@/features/${feature}`, '@/app/*', '../../*', '../../../*'];
    const message = `features/${feature} may not import another feature or app/: move shared code to lib/ or components/.`;
    // The feature's top-level files (api.ts) leave it with one `../`.
    return [restrict([`src/features/${feature}/**`], group, message), restrict([`src/features/${feature}/*`], [...group, '../*'], message)];
  }),
];

export default tseslint.config(
  { ignores: ['dist', 'e2e-artifacts', 'playwright-report', 'test-results', 'node_modules'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  ...boundaries,
  {
    // The API's types come from its schema through the typed client (src/lib/api.ts): a type
    // picked by hand at a call (`api<Lesson>(...)`, `data<Lesson>(...)`) would override it.
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[typeArguments]:matches([callee.name='api'], [callee.name='data'], [callee.object.name='api'])",
          message: 'No hand-picked API types: the typed client (src/lib/api.ts) takes them from the schema.',
        },
      ],
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'e2e/**/*.mjs', '*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
);
