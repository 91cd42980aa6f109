// Lint rules that catch what the compiler lets through: typescript-eslint's
// "recommended-type-checked" set (promises nobody awaits or handles, promises handed to
// places that expect a plain function, values of type `any` flowing into typed code,
// assertions that assert nothing, template strings that would print "[object Object]",
// methods taken off their object, names declared but never used). Type-aware: the rules read
// the types tsconfig.json gives every file. What does not fit, and why, is turned off below.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'build/**', 'coverage/**', '.scratch/**', 'src/web/static/**', 'examples/**'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // An async function without await is how a fastify plugin, a route handler or an
      // interface method that may wait is written: it returns a promise by contract.
      '@typescript-eslint/require-await': 'off',
      // A family is an object of methods that never read `this` (src/families/family.ts), and
      // consumers hand its members on as functions: the rule would flag the seam itself.
      '@typescript-eslint/unbound-method': 'off',
      // `never` in a template is an exhaustiveness message ("… not ${task}") that cannot run.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNever: true }],
    },
  },
  {
    // Tests read answers of the API and of servers as JSON (`res.json()` is `any`) and assert
    // on their fields: typing every answer would repeat the schemas the assertions check.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Assertion messages print whatever came back, objects included.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
    },
  },
);
