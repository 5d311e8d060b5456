import type { ToolGrammar } from '../grammar';

// Python's package managers, environments and test runners.

export const PYTHON: ToolGrammar[] = [
  {
    names: ['uv'],
    deeper: ['pip', 'tool', 'python', 'cache', 'self'],
    value: [
      '--python',
      '-p',
      '--project',
      '--directory',
      '--package',
      '--extra',
      '--group',
      '--with',
      '--index-url',
      '--from',
      '-r',
      '--requirement',
      '-c',
      '--constraint',
    ],
    selector: ['--project', '--directory', '--package'],
  },
  {
    names: ['poetry'],
    deeper: ['env', 'self', 'source', 'cache'],
    value: ['-C', '--directory', '--with', '--without', '--only', '-E', '--extras', '-G', '--group', '-P', '--project'],
    selector: ['-C', '--directory', '-P', '--project'],
  },
  {
    names: ['pip', 'pip3'],
    value: ['-r', '--requirement', '-c', '--constraint', '-i', '--index-url', '--extra-index-url', '-t', '--target'],
  },
  {
    names: ['pipenv', 'pdm', 'hatch'],
    value: ['-p', '--project', '-e', '--env'],
    selector: ['-p', '--project'],
  },
  {
    names: ['tox', 'nox'],
    only: [
      'run',
      'r',
      'run-parallel',
      'p',
      'list',
      'l',
      'devenv',
      'd',
      'config',
      'c',
      'quickstart',
      'exec',
      'e',
      'legacy',
    ],
    aliases: { r: 'run', p: 'run-parallel', l: 'list', d: 'devenv', c: 'config', e: 'exec' },
    // the environment is the job: `tox -e lint` and `tox -e py312` do different things
    value: ['-e', '--env', '-s', '--session', '-c', '--conf', '--root', '-f', '--factor', '-m', '--labels', '-n'],
    identity: ['-e', '--env', '-s', '--session', '-m', '--labels'],
  },
  {
    names: ['pytest', 'py.test'],
    depth: 0,
    value: [
      '-k',
      '-m',
      '-p',
      '-c',
      '-n',
      '-o',
      '--maxfail',
      '--tb',
      '--rootdir',
      '--cov',
      '--junitxml',
      '--deselect',
      '--ignore',
      '--durations',
      '--confcutdir',
      '--basetemp',
    ],
    selector: ['-k', '-m', '--deselect', '--ignore'],
    posix: true,
  },
  {
    names: ['python', 'python3', 'py'],
    // `python manage.py migrate`: the script and its command are what runs
    depth: 2,
    value: ['-W', '-X', '-Q'],
  },
  {
    names: ['ruff'],
    value: ['--config', '--select', '--ignore', '--extend-select', '--target-version', '--line-length'],
  },
  {
    names: ['mypy', 'pyright', 'black', 'isort', 'flake8', 'pylint'],
    depth: 0,
    value: ['--config-file', '-p', '--package', '-m', '--module', '--rcfile', '--project'],
  },
];
