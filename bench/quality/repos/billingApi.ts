import type { RepoSpec, Step } from '../types';
import { bare, notPrescribed } from './negation';

// A uv/Python invoicing service (FastAPI, SQLAlchemy, Alembic, pytest). Its playbook starts the API the wrong way.

const PYTEST_OK =
  '============================= test session starts ==============================\nplatform linux -- Python 3.12.7, pytest-8.3.3, pluggy-1.5.0\nrootdir: /srv/billing-api\nconfigfile: pyproject.toml\ncollected 142 items\n\ntests/test_invoices.py ........................                          [ 16%]\ntests/test_payments.py ................................                  [ 39%]\ntests/test_webhooks.py ..................                                [ 52%]\ntests/api/test_routes.py ....................................................... [100%]\n\n============================= 142 passed in 6.84s ==============================';
const NO_TABLE =
  '============================= test session starts ==============================\ncollected 142 items\n\ntests/test_invoices.py EEEEEEEE\n\n==================================== ERRORS ====================================\n_________________ ERROR at setup of test_create_invoice _________________\nsqlalchemy.exc.ProgrammingError: (psycopg.errors.UndefinedTable) relation "invoices" does not exist\nLINE 1: INSERT INTO invoices (customer_id, total_cents) VALUES ...\n=========================== short test summary info ============================\nERROR tests/test_invoices.py::test_create_invoice - sqlalchemy.exc.ProgrammingError\n======================== 96 passed, 46 errors in 4.12s =========================';
const UPGRADED =
  'INFO  [alembic.runtime.migration] Context impl PostgresqlImpl.\nINFO  [alembic.runtime.migration] Will assume transactional DDL.\nINFO  [alembic.runtime.migration] Running upgrade  -> 3f2a9c1d, create invoices\nINFO  [alembic.runtime.migration] Running upgrade 3f2a9c1d -> 8b7e0d44, add credit notes';
const MAIN_FAIL =
  'Traceback (most recent call last):\n  File "/srv/billing-api/app/main.py", line 3, in <module>\n    from app.routes import invoices\nModuleNotFoundError: No module named \'app\'';
const FASTAPI_OK =
  '   FastAPI   Starting development server 🚀\n\n             Searching for package file structure from directories with __init__.py files\n             Importing from /srv/billing-api\n\n    module   🐍 app/main.py\n      code   Importing the FastAPI app object from the module with the following code:\n             from app.main import app\n\n       app   Using import string: app.main:app\n\n    server   Server started at http://127.0.0.1:8000';
const MYPY_VENDOR =
  'vendor/pdfkit_stubs/__init__.pyi:12: error: Name "Incomplete" is not defined  [name-defined]\nvendor/pdfkit_stubs/api.pyi:40: error: Duplicate module named "pdfkit"  [no-redef]\nFound 37 errors in 6 files (checked 118 source files)';
const MYPY_OK = 'Success: no issues found in 64 source files';
const RUFF_FORMAT_OK = '3 files reformatted, 61 files left unchanged';
const MKDOCS_FAIL = 'error: Failed to spawn: `mkdocs`\n  Caused by: No such file or directory (os error 2)';
const MKDOCS_OK =
  'INFO    -  Cleaning site directory\nINFO    -  Building documentation to directory: /srv/billing-api/site\nINFO    -  Documentation built in 1.42 seconds';
const SEED_FAIL =
  'Traceback (most recent call last):\n  File "/srv/billing-api/app/seed.py", line 9, in <module>\n    engine = create_engine(settings.database_url)\nRuntimeError: DATABASE_URL is not set. Load the environment first: `source .env`';
const SEED_OK = 'Seeded 12 customers, 40 invoices, 9 credit notes.';
const HOOK_FAIL =
  'ruff.....................................................................Failed\n- hook id: ruff\n- exit code: 1\n\napp/routes/credit_notes.py:4:1: F401 [*] `datetime.timezone` imported but unused\napp/routes/credit_notes.py:31:5: E741 Ambiguous variable name: `l`\nFound 2 errors.\n[*] 1 fixable with the `--fix` option.';
const RUFF_FIX = 'Found 2 errors (2 fixed, 0 remaining).';
const COMMIT_OK = (msg: string) =>
  `ruff.....................................................................Passed\nruff-format..............................................................Passed\n[main 4c1d2e9] ${msg}\n 2 files changed, 38 insertions(+), 3 deletions(-)`;
const OPENAPI_OK = 'wrote openapi.json (34 paths, 58 schemas)';

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

export const billingApi: RepoSpec = {
  name: 'billing-api',
  ecosystem: 'uv/Python',
  agentsText: [
    '# billing-api',
    '',
    'Invoicing service: FastAPI, SQLAlchemy 2, Postgres. Python 3.12, managed with uv.',
    '',
    '- Run Python through `uv run`; do not pip install anything into the system interpreter.',
    '- Every schema change needs an Alembic migration in `migrations/versions/`.',
    '- Amounts are integers in cents; never floats.',
    '',
  ].join('\n'),
  files: {
    'pyproject.toml':
      '[project]\nname = "billing-api"\nversion = "1.8.2"\nrequires-python = ">=3.12"\ndependencies = ["fastapi[standard]>=0.115", "sqlalchemy>=2.0", "alembic>=1.13", "psycopg[binary]>=3.2"]\n\n[dependency-groups]\ndev = ["pytest>=8.3", "mypy>=1.13", "ruff>=0.7"]\ndocs = ["mkdocs-material>=9.5"]\n',
    'app/main.py':
      'from fastapi import FastAPI\n\nfrom app.routes import invoices\n\napp = FastAPI(title="billing-api")\napp.include_router(invoices.router)\n',
    '.env.example': 'DATABASE_URL=postgresql+psycopg://billing@localhost:5432/billing\n',
    'scripts/export_openapi.py':
      'import json\n\nfrom app.main import app\n\njson.dump(app.openapi(), open("openapi.json", "w"), indent=2)\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Format Python with `uv run ruff format`.',
      expected: 'helpful',
      label: 'bill-ruff-format',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Start the API with `python app/main.py`.',
      expected: 'harmful',
      label: 'bill-python-main',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content: '`uv run mypy .` is broken by the vendored stubs; typecheck with `uv run mypy app`.',
      expected: 'helpful',
      label: 'bill-mypy-app',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content: 'Run `uv run ruff check --fix` before you commit.',
      expected: 'violated',
      label: 'bill-ruff-check',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Invoice numbers come from `next_invoice_number()`; never compute them by hand.',
      expected: 'untouched',
      label: 'bill-invoice-number',
    },
  ],
  labels: [
    {
      id: 'bill-migrate',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `uv run alembic upgrade head` before `uv run pytest`: the tests need the migrated schema.',
      paraphrases: [
        'Apply the migrations (`uv run alembic upgrade head`) before running the tests.',
        'If pytest fails with `relation "invoices" does not exist`, run `uv run alembic upgrade head` first.',
      ],
      match: { all: [/alembic upgrade/] },
    },
    {
      id: 'bill-docs',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Build the docs with `uv run --group docs mkdocs build`; plain `uv run mkdocs build` cannot find mkdocs.',
      paraphrases: [
        'mkdocs is only in the `docs` group: run `uv run --group docs mkdocs build`.',
        'Use `--group docs` when building the documentation with uv.',
      ],
      match: { all: [/--group docs/] },
    },
    {
      id: 'bill-openapi',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Always run `uv run scripts/export_openapi.py` before committing a change to the API, and commit `openapi.json` with it.',
      paraphrases: [
        'Regenerate `openapi.json` with `uv run scripts/export_openapi.py` before every commit that touches the routes.',
        'API changes must ship with a fresh `openapi.json` (`uv run scripts/export_openapi.py`).',
      ],
      match: { all: [/export_openapi|openapi\.json/] },
    },
    {
      id: 'bill-source-env',
      kind: 'lesson',
      section: 'Pitfalls',
      text: 'Run `source .env` before `uv run python -m app.seed`: it needs `DATABASE_URL`.',
      paraphrases: [
        'The seed script needs DATABASE_URL: load it with `source .env` first.',
        '`uv run python -m app.seed` fails with "DATABASE_URL is not set" unless `.env` is sourced.',
      ],
      match: { all: [/source \.env|\.env\b[^.]*\b(load|source)|DATABASE_URL/i] },
    },
    {
      id: 'bill-fastapi-dev',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Start the API with `uv run fastapi dev app/main.py`, not `python app/main.py`.',
      paraphrases: [
        'Run the server with `uv run fastapi dev app/main.py` (plain python cannot import the `app` package).',
        'Use `uv run fastapi dev app/main.py` to start the API locally.',
      ],
      match: { all: [/fastapi dev/] },
    },
    { id: 'bill-pytest', kind: 'fact', text: 'Run the tests with `uv run pytest`.', match: { all: [/uv run pytest/] } },
    {
      id: 'bill-ruff-format',
      kind: 'fact',
      text: 'Format with `uv run ruff format`.',
      match: { all: [/ruff format/] },
    },
    { id: 'bill-mypy-app', kind: 'fact', text: 'Typecheck with `uv run mypy app`.', match: { all: [/mypy app/] } },
    {
      id: 'bill-ruff-check',
      kind: 'fact',
      text: 'Run `uv run ruff check --fix` before committing.',
      match: { all: [/ruff check/] },
    },
    {
      id: 'bill-invoice-number',
      kind: 'fact',
      text: 'Invoice numbers come from `next_invoice_number()`.',
      match: { all: [/next_invoice_number/] },
    },
    {
      id: 'bill-uv',
      kind: 'fact',
      text: 'Run Python through `uv run`, never a system pip.',
      match: { all: [/\buv\b/, /\b(never|not|only|always)\b[^.;]*\b(pip|system|uv run)\b/i] },
    },
    {
      id: 'bill-python-main',
      kind: 'wrong',
      text: 'Start the API with `python app/main.py`.',
      match: { all: [bare('python3? app/main\\.py')], none: notPrescribed('python3? app/main') },
    },
    {
      id: 'bill-pip',
      kind: 'wrong',
      text: 'Install dependencies with `pip install -r requirements.txt`.',
      match: { all: [bare('pip3? install')], none: notPrescribed('pip') },
    },
  ],
  noise: [
    { id: 'test-node', match: { all: [/tests\/\S+\.py|::test_/] } },
    { id: 'typo', match: { all: [/pytset/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|test_webhook_retry|timed? ?out/i] } },
    { id: 'question', match: { all: [/\bPDF\b|render time/i] } },
    { id: 'task', match: { all: [/credit[ -]notes?|late fee|VAT|reminder|customer_id|git commit -am/i] } },
  ],
  conflicts: [
    {
      id: 'python-vs-fastapi',
      a: { all: [bare('python3? app/main\\.py')], none: notPrescribed('python3? app/main') },
      b: { all: [/fastapi dev/] },
      why: 'two ways to start the API: the wrong one and the one the user insisted on',
    },
    {
      id: 'pip-vs-uv',
      a: { all: [bare('pip3? install')], none: notPrescribed('pip') },
      b: { all: [/\b(do not|don't|never|not)\b[^.;]*\bpip\b/i] },
      why: 'a rule installs with pip where the team forbids it',
    },
  ],
  sessions: [
    {
      key: 'bill-01',
      agent: 'codex',
      day: 2,
      hour: 10,
      lessons: ['bill-migrate'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Add a late fee of 2% to invoices that are more than 30 days overdue.' },
        run('uv run pytest', NO_TABLE, 1),
        { say: 'The test database has no tables yet; applying the migrations.' },
        run('uv run alembic upgrade head', UPGRADED),
        run('uv run pytest', PYTEST_OK),
        {
          edit: 'app/billing/fees.py',
          old: 'def late_fee_cents(invoice):\n    return 0',
          new: 'def late_fee_cents(invoice):\n    return invoice.total_cents * 2 // 100 if invoice.days_overdue > 30 else 0',
        },
        run('uv run pytest tests/test_invoices.py::test_late_fee', '1 passed in 0.41s'),
        run('uv run ruff format', RUFF_FORMAT_OK),
        run('uv run pytest', PYTEST_OK),
        { say: 'Late fees are applied after 30 days overdue.' },
      ],
    },
    {
      key: 'bill-02',
      agent: 'claude-code',
      day: 3,
      hour: 9,
      lessons: ['bill-migrate'],
      tags: {},
      steps: [
        { user: 'The credit note total is off by one cent for some VAT rates, can you check?' },
        run('uv run pytest', NO_TABLE, 1),
        run('uv run alembic upgrade head', UPGRADED),
        run('uv run pytest', PYTEST_OK),
        {
          read: 'app/billing/vat.py',
          out: 'def vat_cents(net_cents: int, rate: Decimal) -> int:\n    return int(net_cents * rate)',
        },
        {
          edit: 'app/billing/vat.py',
          old: 'return int(net_cents * rate)',
          new: 'return int((net_cents * rate).quantize(Decimal(1), ROUND_HALF_UP))',
        },
        run('uv run pytest', PYTEST_OK),
        { say: 'VAT is rounded half up now; the credit note totals match.' },
        { user: 'perfect, thanks' },
      ],
    },
    {
      key: 'bill-03',
      agent: 'claude-code',
      day: 4,
      hour: 14,
      lessons: ['bill-fastapi-dev'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Start the API locally and check that GET /invoices/{id} returns the PDF link.' },
        run('python app/main.py', MAIN_FAIL, 1),
        { user: "That's not how we start it. Use uv run fastapi dev app/main.py." },
        run('uv run fastapi dev app/main.py', FASTAPI_OK),
        run('curl -s localhost:8000/invoices/42', '{"id":42,"number":"INV-2026-0042","pdf_url":"/invoices/42.pdf"}'),
        { say: 'GET /invoices/42 returns the PDF link.' },
      ],
    },
    {
      key: 'bill-04',
      agent: 'codex',
      day: 5,
      hour: 15,
      lessons: ['bill-fastapi-dev'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Why does the invoice PDF take so long to render? Start the server and time it.' },
        run('python app/main.py', MAIN_FAIL, 1),
        { user: 'No, python app/main.py never worked here: run it with uv run fastapi dev app/main.py.' },
        run('uv run fastapi dev app/main.py', FASTAPI_OK),
        run('curl -s -o /dev/null -w "%{time_total}" localhost:8000/invoices/42.pdf', '2.913'),
        {
          say: 'Rendering takes 2.9 s because the PDF fonts are loaded on every request; they could be loaded once at start-up.',
        },
      ],
    },
    {
      key: 'bill-05',
      agent: 'codex',
      day: 6,
      hour: 11,
      lessons: ['bill-docs'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Document the webhook payloads in docs/webhooks.md and make sure the docs build.' },
        {
          edit: 'docs/webhooks.md',
          old: '# Webhooks',
          new: '# Webhooks\n\n## invoice.paid\n\n```json\n{"type": "invoice.paid", "invoice_id": 42}\n```',
        },
        run('uv run mkdocs build', MKDOCS_FAIL, 2),
        run('uv run --group docs mkdocs build', MKDOCS_OK),
        run('uv run mypy .', MYPY_VENDOR, 1),
        run('uv run mypy app', MYPY_OK),
        { say: 'The webhook payloads are documented and the docs build.' },
      ],
    },
    {
      key: 'bill-06',
      agent: 'claude-code',
      day: 9,
      hour: 10,
      lessons: ['bill-docs'],
      tags: {},
      steps: [
        { user: 'Fix the broken link to the API reference on the docs home page.' },
        { edit: 'docs/index.md', old: '[API reference](api.md)', new: '[API reference](reference/api.md)' },
        run('uv run mkdocs build --strict', MKDOCS_FAIL, 2),
        run('uv run --group docs mkdocs build --strict', MKDOCS_OK),
        { say: 'The link points at reference/api.md and the strict build passes.' },
      ],
    },
    {
      key: 'bill-07',
      agent: 'codex',
      day: 10,
      hour: 9,
      lessons: ['bill-openapi'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        {
          user: 'Add a GET /credit-notes endpoint. Always run uv run scripts/export_openapi.py before committing API changes, and commit openapi.json with it.',
        },
        {
          edit: 'app/routes/credit_notes.py',
          old: '',
          new: 'from datetime import timezone\n\nrouter = APIRouter()\n\n@router.get("/credit-notes")\ndef list_credit_notes(db: Session = Depends(get_db)):\n    return [CreditNoteOut.from_orm(l) for l in db.scalars(select(CreditNote))]',
        },
        run('uv run scripts/export_openapi.py', OPENAPI_OK),
        run('git commit -am "Add GET /credit-notes"', HOOK_FAIL, 1),
        run('uv run ruff check --fix', RUFF_FIX),
        run('git commit -am "Add GET /credit-notes"', COMMIT_OK('Add GET /credit-notes')),
        { say: 'Added GET /credit-notes with the OpenAPI schema regenerated.' },
      ],
    },
    {
      key: 'bill-08',
      agent: 'claude-code',
      day: 11,
      hour: 16,
      lessons: ['bill-openapi'],
      tags: { 'conv-00004': 'violated', 'bat-00003': 'helpful' },
      steps: [
        { user: 'Rename the query parameter `cust` to `customer_id` on GET /invoices.' },
        { edit: 'app/routes/invoices.py', old: 'cust: int | None = None', new: 'customer_id: int | None = None' },
        run('uv run mypy .', MYPY_VENDOR, 1),
        run('uv run mypy app', MYPY_OK),
        run('git commit -am "Rename cust to customer_id"', HOOK_FAIL, 1),
        {
          user: 'Before you commit: always regenerate openapi.json with uv run scripts/export_openapi.py when the API changes.',
        },
        run('uv run scripts/export_openapi.py', OPENAPI_OK),
        run('uv run ruff check --fix', RUFF_FIX),
        run('git commit -am "Rename cust to customer_id"', COMMIT_OK('Rename cust to customer_id')),
        { say: 'Renamed the parameter and committed it with the new openapi.json.' },
      ],
    },
    {
      key: 'bill-09',
      agent: 'codex',
      day: 12,
      hour: 14,
      lessons: ['bill-source-env'],
      tags: {},
      steps: [
        { user: 'Seed the local database with demo data so I can try the reminder emails.' },
        run('uv run python -m app.seed', SEED_FAIL, 1),
        run('source .env && uv run python -m app.seed', SEED_OK),
        { say: 'The local database is seeded with 12 customers and 40 invoices.' },
      ],
    },
    {
      key: 'bill-10',
      agent: 'claude-code',
      day: 13,
      hour: 10,
      lessons: ['bill-source-env'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Add two overdue invoices to the seed data.' },
        {
          edit: 'app/seed.py',
          old: 'INVOICES = [',
          new: 'INVOICES = [\n    demo_invoice(days_overdue=45),\n    demo_invoice(days_overdue=60),',
        },
        run('uv run ruff format', '1 file reformatted, 63 files left unchanged'),
        run('uv run python -m app.seed', SEED_FAIL, 1),
        run('source .env && uv run python -m app.seed', 'Seeded 12 customers, 42 invoices, 9 credit notes.'),
        { say: 'The seed data has two overdue invoices now.' },
      ],
    },
    {
      key: 'bill-11',
      agent: 'codex',
      day: 16,
      hour: 9,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Make the webhook retry back off exponentially, capped at 10 minutes.' },
        { edit: 'app/webhooks/retry.py', old: 'delay = 30', new: 'delay = min(30 * 2 ** attempt, 600)' },
        run(
          'uv run pytset',
          'error: Failed to spawn: `pytset`\n  Caused by: No such file or directory (os error 2)',
          2,
        ),
        run(
          'uv run pytest',
          'tests/test_webhooks.py::test_webhook_retry FAILED\nE   TimeoutError: delivery did not complete within 2.0s\n=================== 1 failed, 141 passed in 8.02s ===================',
          1,
        ),
        run('uv run pytest', PYTEST_OK),
        { say: 'Retries back off exponentially up to 10 minutes.' },
      ],
    },
  ],
};
