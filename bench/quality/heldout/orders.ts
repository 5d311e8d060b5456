import { notPrescribedHere } from './ruledOut';
import type { RepoSpec, Step } from '../types';

// A Java/Gradle order service (Spring Boot, Flyway, Testcontainers-free integration tests, Jib). Its playbook
// formats with a task the build no longer has.

const TEST_OK =
  '> Task :compileJava UP-TO-DATE\n> Task :compileTestJava\n> Task :test\n\nBUILD SUCCESSFUL in 14s\n5 actionable tasks: 2 executed, 3 up-to-date';
const IT_NO_DB =
  "> Task :integrationTest\n\nOrderRepositoryIT > initializationError FAILED\n    org.postgresql.util.PSQLException at ConnectionFactoryImpl.java:346\n        Caused by: java.net.ConnectException at Net.java:-2\n\n12 tests completed, 12 failed\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':integrationTest'.\n> There were failing tests. Connection to localhost:5432 refused.";
const COMPOSE_UP = ' ✔ Container orders-postgres-1  Started';
const IT_OK = '> Task :integrationTest\n\nBUILD SUCCESSFUL in 31s\n7 actionable tasks: 3 executed, 4 up-to-date';
const NO_GJF =
  "FAILURE: Build failed with an exception.\n\n* What went wrong:\nTask 'googleJavaFormat' not found in root project 'orders'.\n\n* Try:\n> Run gradle tasks to get a list of available tasks.\n\nBUILD FAILED in 1s";
const SPOTLESS_OK =
  '> Task :spotlessJava\n> Task :spotlessApply\n\nBUILD SUCCESSFUL in 3s\n2 actionable tasks: 2 executed';
const NO_DOCKERFILE = 'ERROR: failed to solve: failed to read dockerfile: open Dockerfile: no such file or directory';
const JIB_OK =
  '> Task :jibDockerBuild\n\nContainerizing application to Docker daemon as orders:1.4.0...\nBuilt image to Docker daemon as orders:1.4.0\n\nBUILD SUCCESSFUL in 22s';
const BOOTRUN_FAIL =
  "***************************\nAPPLICATION FAILED TO START\n***************************\n\nDescription:\n\nFailed to configure a DataSource: 'url' attribute is not specified and no embedded datasource could be configured.\n\nAction:\n\nIf you have database settings to be loaded from a particular profile you may need to activate it (no profiles are currently active).\n\n> Task :bootRun FAILED";
const BOOTRUN_OK =
  'The following 1 profile is active: "local"\nTomcat started on port 8080 (http) with context path \'/\'\nStarted OrdersApplication in 3.412 seconds (process running for 3.9)';
const LOCK_FAIL = (coordinate: string) =>
  `FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':compileJava'.\n> Could not resolve all files for configuration ':compileClasspath'.\n   > Resolved '${coordinate}' which is not part of the dependency lock state`;
const LOCKS_WRITTEN =
  '> Task :dependencies\n\nBUILD SUCCESSFUL in 4s\n1 actionable task: 1 executed\nlockfile updated: gradle.lockfile';
const NO_CONTRACTS =
  "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':compileJava'.\n> Could not resolve all files for configuration ':compileClasspath'.\n   > Could not find com.acme:order-contracts:2.4.0.\n     Searched in the following locations:\n       - file:/home/dev/.m2/repository/com/acme/order-contracts/2.4.0/order-contracts-2.4.0.pom\n     Publish the contracts locally first: ./gradlew :contracts:publishToMavenLocal";
const PUBLISHED = '> Task :contracts:publishToMavenLocal\n\nBUILD SUCCESSFUL in 6s\n4 actionable tasks: 4 executed';

const run = (command: string, out: string, code = 0): Step => ({ run: command, out, code });

const SYSTEM_GRADLE = /(?<![\w/.-])gradle (?:test|build|bootRun|check)\b/;

export const orders: RepoSpec = {
  name: 'orders',
  ecosystem: 'Gradle/Java',
  agentsText: [
    '# orders',
    '',
    'Order service: Spring Boot 3.3, Java 21, Postgres, built with the Gradle wrapper.',
    '',
    '- Use `./gradlew`, never a system `gradle`.',
    '- Keep controllers thin; the logic lives in services.',
    '- Log with SLF4J placeholders, not string concatenation.',
    '',
  ].join('\n'),
  files: {
    'settings.gradle.kts': 'rootProject.name = "orders"\ninclude("contracts")\n',
    'build.gradle.kts':
      'plugins {\n    java\n    id("org.springframework.boot") version "3.3.5"\n    id("com.diffplug.spotless") version "6.25.0"\n    id("com.google.cloud.tools.jib") version "3.4.4"\n    id("org.flywaydb.flyway") version "10.20.1"\n}\n\ndependencyLocking { lockAllConfigurations() }\n\ndependencies {\n    implementation("com.acme:order-contracts:2.4.0")\n    implementation("org.springframework.boot:spring-boot-starter-web")\n    implementation("org.flywaydb:flyway-core")\n}\n',
    'src/main/resources/application-local.yml':
      'spring:\n  datasource:\n    url: jdbc:postgresql://localhost:5432/orders\n    username: orders\n',
    'compose.yaml': 'services:\n  postgres:\n    image: postgres:16\n    ports: ["5432:5432"]\n',
  },
  teamRules: [
    {
      id: 'bat-00001',
      section: 'Build and test',
      content: 'Run the tests with `./gradlew test`.',
      expected: 'helpful',
      label: 'orders-test',
    },
    {
      id: 'bat-00002',
      section: 'Build and test',
      content: 'Format Java with `./gradlew googleJavaFormat`.',
      expected: 'harmful',
      label: 'orders-gjf',
    },
    {
      id: 'bat-00003',
      section: 'Build and test',
      content:
        "Plain `./gradlew bootRun` is broken (no datasource without a profile); start the service with `./gradlew bootRun --args='--spring.profiles.active=local'`.",
      expected: 'helpful',
      label: 'orders-local-profile',
    },
    {
      id: 'conv-00004',
      section: 'Conventions',
      content:
        'Write the dependency locks with `./gradlew dependencies --write-locks` whenever you change a dependency.',
      expected: 'violated',
      label: 'orders-locks',
    },
    {
      id: 'conv-00005',
      section: 'Conventions',
      content: 'Controllers return `ResponseEntity`, never a bare entity.',
      expected: 'untouched',
      label: 'orders-response-entity',
    },
  ],
  labels: [
    {
      id: 'orders-compose',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Run `docker compose up -d postgres` before `./gradlew integrationTest`: the integration tests need the database.',
      paraphrases: [
        'Start Postgres (`docker compose up -d postgres`) before running the integration tests.',
        'If `./gradlew integrationTest` fails with "Connection to localhost:5432 refused", run `docker compose up -d postgres` first.',
      ],
      match: { all: [/docker compose up/] },
    },
    {
      id: 'orders-jib',
      kind: 'lesson',
      section: 'Build and test',
      text: 'Build the container image with `./gradlew jibDockerBuild`: the repository has no Dockerfile, so `docker build` fails.',
      paraphrases: [
        'Images are built by Jib: use `./gradlew jibDockerBuild` rather than `docker build`.',
        'Use `./gradlew jibDockerBuild` to build the Docker image.',
      ],
      match: { all: [/jibDockerBuild/] },
    },
    {
      id: 'orders-flyway',
      kind: 'lesson',
      section: 'Conventions',
      text: 'Never edit a Flyway migration that has been applied; add a new `V<n>__<description>.sql` instead.',
      paraphrases: [
        'Applied Flyway migrations are frozen: schema changes go in a new versioned migration file.',
        'Do not modify an existing Flyway `V*__*.sql` file; write the next version instead.',
      ],
      match: { all: [/flyway/i] },
    },
    {
      id: 'orders-contracts',
      kind: 'lesson',
      section: 'Pitfalls',
      text: 'When `com.acme:order-contracts` cannot be resolved, run `./gradlew :contracts:publishToMavenLocal` first.',
      paraphrases: [
        'The build needs the contracts module in the local Maven repository: `./gradlew :contracts:publishToMavenLocal`.',
        'A fresh checkout fails to compile until `./gradlew :contracts:publishToMavenLocal` has run.',
      ],
      match: { all: [/publishToMavenLocal/] },
    },
    {
      id: 'orders-spotless',
      kind: 'lesson',
      section: 'Build and test',
      corrects: 'bat-00002',
      text: 'Format Java with `./gradlew spotlessApply`, not `./gradlew googleJavaFormat`.',
      paraphrases: [
        'The build formats with Spotless now: run `./gradlew spotlessApply`.',
        'Use `./gradlew spotlessApply` to format the Java sources.',
      ],
      match: { all: [/spotlessApply/] },
    },
    {
      id: 'orders-local-profile',
      kind: 'fact',
      text: "Start the service with `./gradlew bootRun --args='--spring.profiles.active=local'`.",
      match: { all: [/profiles\.active=local/] },
    },
    {
      id: 'orders-locks',
      kind: 'fact',
      text: 'Write the dependency locks with `./gradlew dependencies --write-locks`.',
      match: { all: [/write-locks/] },
    },
    {
      id: 'orders-response-entity',
      kind: 'fact',
      text: 'Controllers return `ResponseEntity`.',
      match: { all: [/ResponseEntity/] },
    },
    {
      id: 'orders-test',
      kind: 'fact',
      text: 'Run the tests with `./gradlew test`.',
      match: { all: [/gradlew test\b/] },
    },
    {
      id: 'orders-wrapper',
      kind: 'fact',
      text: 'Use the Gradle wrapper `./gradlew`, never a system gradle.',
      match: { all: [/gradlew|wrapper/i, /\b(never|not|only|always)\b/i] },
    },
    {
      id: 'orders-gjf',
      kind: 'wrong',
      text: 'Format Java with `./gradlew googleJavaFormat`.',
      match: { all: [/googleJavaFormat/], none: notPrescribedHere('(?:\\./gradlew )?googleJavaFormat') },
    },
    {
      id: 'orders-system-gradle',
      kind: 'wrong',
      text: 'Run the tests with `gradle test`.',
      match: { all: [SYSTEM_GRADLE], none: notPrescribedHere('gradle') },
    },
  ],
  noise: [
    { id: 'test-file', match: { all: [/(?<!\w)[A-Z]\w*(?:IT|Test)\b|--tests/] } },
    { id: 'typo', match: { all: [/gradlw\b|tset/] } },
    { id: 'flaky', match: { all: [/flak|re-?run|retry|timed? ?out|ConditionTimeout/i] } },
    { id: 'question', match: { all: [/p99|latency|slow/i] } },
    { id: 'task', match: { all: [/refund|discount|idempoten|currency|moneta|customer_id|temurin|git commit -m/i] } },
  ],
  conflicts: [
    {
      id: 'gjf-vs-spotless',
      a: { all: [/googleJavaFormat/], none: notPrescribedHere('(?:\\./gradlew )?googleJavaFormat') },
      b: { all: [/spotlessApply/] },
      why: 'two formatters: the task the build no longer has and the one the user insisted on',
    },
    {
      id: 'system-gradle-vs-wrapper',
      a: { all: [SYSTEM_GRADLE], none: notPrescribedHere('gradle') },
      b: { all: [/\b(never|not|don't|do not)\b[^.;]*\bgradle\b/i] },
      why: 'a rule runs a system Gradle where the team only uses the wrapper',
    },
  ],
  sessions: [
    {
      key: 'orders-01',
      agent: 'codex',
      day: 2,
      hour: 9,
      lessons: ['orders-compose'],
      tags: { 'bat-00001': 'helpful' },
      steps: [
        { user: 'Add POST /orders/{id}/refund that refunds a paid order.' },
        {
          edit: 'src/main/java/com/acme/orders/RefundService.java',
          old: '',
          new: 'public Order refund(long id) {\n    Order order = orders.findPaid(id).orElseThrow(OrderNotPaid::new);\n    return orders.save(order.refunded(clock.instant()));\n}',
        },
        run('./gradlew test --tests RefundServiceTest', TEST_OK),
        run('./gradlew test', TEST_OK),
        run('./gradlew integrationTest', IT_NO_DB, 1),
        { say: 'The integration tests need Postgres; starting it from compose.yaml.' },
        run('docker compose up -d postgres', COMPOSE_UP),
        run('./gradlew integrationTest', IT_OK),
        { say: 'Refunds are in place and every test passes.' },
      ],
    },
    {
      key: 'orders-02',
      agent: 'claude-code',
      day: 3,
      hour: 11,
      lessons: ['orders-compose'],
      tags: {},
      steps: [
        { user: 'Percentage discounts round the wrong way on the stored total. Fix it.' },
        run('./gradlew integrationTest', IT_NO_DB, 1),
        run('docker compose up -d postgres', COMPOSE_UP),
        run(
          './gradlew integrationTest',
          'OrderRepositoryIT > storesDiscountedTotal() FAILED\n    org.opentest4j.AssertionFailedError: expected: <1799> but was: <1800>\n\n12 tests completed, 1 failed',
          1,
        ),
        {
          edit: 'src/main/java/com/acme/orders/Discount.java',
          old: 'return Math.round(cents * (100 - percent) / 100.0);',
          new: 'return Math.floorDiv(cents * (100 - percent), 100);',
        },
        run('./gradlew integrationTest', IT_OK),
        { say: 'Discounts round down now; the stored total is right.' },
      ],
    },
    {
      key: 'orders-03',
      agent: 'claude-code',
      day: 4,
      hour: 14,
      lessons: ['orders-spotless'],
      tags: { 'bat-00002': 'harmful', 'bat-00001': 'helpful' },
      steps: [
        { user: 'Accept an Idempotency-Key header on POST /orders.' },
        {
          edit: 'src/main/java/com/acme/orders/OrderController.java',
          old: 'public ResponseEntity<OrderDto> create(@RequestBody NewOrder body) {',
          new: 'public ResponseEntity<OrderDto> create(@RequestHeader("Idempotency-Key") String key, @RequestBody NewOrder body) {',
        },
        run('./gradlew googleJavaFormat', NO_GJF, 1),
        { user: 'We moved to Spotless months ago. Format with ./gradlew spotlessApply.' },
        run('./gradlew spotlessApply', SPOTLESS_OK),
        run('./gradlew test', TEST_OK),
        { say: 'POST /orders takes the Idempotency-Key header; formatted with Spotless.' },
      ],
    },
    {
      key: 'orders-04',
      agent: 'codex',
      day: 5,
      hour: 10,
      lessons: ['orders-spotless'],
      tags: { 'bat-00002': 'harmful' },
      steps: [
        { user: 'Why is the p99 latency of GET /orders so high? Add a timer around the repository call.' },
        {
          edit: 'src/main/java/com/acme/orders/OrderService.java',
          old: 'return orders.findByCustomer(customerId);',
          new: 'return timer.record(() -> orders.findByCustomer(customerId));',
        },
        run('./gradlew googleJavaFormat', NO_GJF, 1),
        { user: "googleJavaFormat doesn't exist any more, run ./gradlew spotlessApply instead." },
        run('./gradlew spotlessApply', SPOTLESS_OK),
        {
          say: 'The timer is in. The slow part is the query: findByCustomer loads every order line eagerly.',
        },
      ],
    },
    {
      key: 'orders-05',
      agent: 'codex',
      day: 6,
      hour: 15,
      lessons: ['orders-jib'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Build the image, run the service locally and check /actuator/health.' },
        run('docker build -t orders .', NO_DOCKERFILE, 1),
        { say: 'There is no Dockerfile; the image is built by the Jib plugin.' },
        run('./gradlew jibDockerBuild', JIB_OK),
        run('./gradlew bootRun', BOOTRUN_FAIL, 1),
        run("./gradlew bootRun --args='--spring.profiles.active=local'", BOOTRUN_OK),
        run('curl -s localhost:8080/actuator/health', '{"status":"UP"}'),
        { say: 'The image builds and the service reports UP.' },
      ],
    },
    {
      key: 'orders-06',
      agent: 'claude-code',
      day: 9,
      hour: 9,
      lessons: ['orders-jib'],
      tags: { 'bat-00003': 'helpful' },
      steps: [
        { user: 'Move the image to eclipse-temurin 21.0.5 and make sure the service still starts.' },
        {
          edit: 'build.gradle.kts',
          old: 'jib { from { image = "eclipse-temurin:21.0.4-jre" } }',
          new: 'jib { from { image = "eclipse-temurin:21.0.5-jre" } }',
        },
        run('docker build .', NO_DOCKERFILE, 1),
        run('./gradlew jibDockerBuild', JIB_OK),
        run('./gradlew bootRun', BOOTRUN_FAIL, 1),
        { say: 'Without a profile there is no datasource: the team runs it with the local profile.' },
        run("./gradlew bootRun --args='--spring.profiles.active=local'", BOOTRUN_OK),
        { say: 'The image is on temurin 21.0.5 and the service starts.' },
      ],
    },
    {
      key: 'orders-07',
      agent: 'codex',
      day: 10,
      hour: 13,
      lessons: ['orders-flyway'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        {
          user: 'Store a currency on each order, with moneta for the amounts. Never edit a Flyway migration that was already applied; add a new V<n>__ file instead.',
        },
        {
          edit: 'src/main/resources/db/migration/V12__add_order_currency.sql',
          old: '',
          new: "ALTER TABLE orders ADD COLUMN currency char(3) NOT NULL DEFAULT 'EUR';",
        },
        {
          edit: 'build.gradle.kts',
          old: '    implementation("org.flywaydb:flyway-core")',
          new: '    implementation("org.flywaydb:flyway-core")\n    implementation("org.javamoney:moneta:1.4.4")',
        },
        run('./gradlew test', LOCK_FAIL('org.javamoney:moneta:1.4.4'), 1),
        run('./gradlew dependencies --write-locks', LOCKS_WRITTEN),
        run('./gradlew test', TEST_OK),
        { say: 'Orders carry a currency (V12 migration) and the locks include moneta.' },
      ],
    },
    {
      key: 'orders-08',
      agent: 'claude-code',
      day: 11,
      hour: 10,
      lessons: ['orders-flyway'],
      tags: { 'conv-00004': 'violated' },
      steps: [
        { user: 'Add an index on orders.customer_id, and bump the Postgres driver to 42.7.4.' },
        {
          edit: 'src/main/resources/db/migration/V3__create_orders.sql',
          old: 'CREATE TABLE orders (',
          new: 'CREATE INDEX orders_customer_idx ON orders (customer_id);\nCREATE TABLE orders (',
        },
        {
          user: "Don't touch V3, it ran in production long ago. Applied Flyway migrations are frozen: put it in a new V13__ migration.",
        },
        {
          edit: 'src/main/resources/db/migration/V13__index_orders_customer.sql',
          old: '',
          new: 'CREATE INDEX orders_customer_idx ON orders (customer_id);',
        },
        {
          edit: 'build.gradle.kts',
          old: 'runtimeOnly("org.postgresql:postgresql:42.7.3")',
          new: 'runtimeOnly("org.postgresql:postgresql:42.7.4")',
        },
        run('./gradlew test', LOCK_FAIL('org.postgresql:postgresql:42.7.4'), 1),
        run('./gradlew dependencies --write-locks', LOCKS_WRITTEN),
        run('./gradlew test', TEST_OK),
        { say: 'The index is in V13 and the driver is bumped with its lock.' },
      ],
    },
    {
      key: 'orders-09',
      agent: 'codex',
      day: 12,
      hour: 16,
      lessons: ['orders-contracts'],
      tags: {},
      steps: [
        { user: 'In this fresh worktree, make the build green before we start on the coupon codes.' },
        run('./gradlew test', NO_CONTRACTS, 1),
        run('./gradlew :contracts:publishToMavenLocal', PUBLISHED),
        run('./gradlew test', TEST_OK),
        { say: 'The build is green; the contracts are published to the local Maven repository.' },
      ],
    },
    {
      key: 'orders-10',
      agent: 'claude-code',
      day: 13,
      hour: 15,
      lessons: ['orders-contracts'],
      tags: {},
      steps: [
        { user: 'Add a `cancelledAt` field to the order event in the contracts module and use it in the service.' },
        {
          edit: 'contracts/src/main/java/com/acme/contracts/OrderEvent.java',
          old: 'Instant placedAt',
          new: 'Instant placedAt,\n    Instant cancelledAt',
        },
        run('./gradlew compileJava', NO_CONTRACTS, 1),
        { say: 'The service compiles against the published contracts; publishing the new version locally.' },
        run('./gradlew :contracts:publishToMavenLocal', PUBLISHED),
        run('./gradlew compileJava', '> Task :compileJava\n\nBUILD SUCCESSFUL in 5s'),
        { say: 'The order event carries cancelledAt and the service sets it.' },
      ],
    },
    {
      key: 'orders-11',
      agent: 'codex',
      day: 16,
      hour: 11,
      lessons: [],
      tags: {},
      steps: [
        { user: 'Reject refunds on orders older than 90 days.' },
        {
          edit: 'src/main/java/com/acme/orders/RefundService.java',
          old: 'Order order = orders.findPaid(id).orElseThrow(OrderNotPaid::new);',
          new: 'Order order = orders.findPaid(id).orElseThrow(OrderNotPaid::new);\nif (order.paidAt().isBefore(clock.instant().minus(Duration.ofDays(90)))) throw new RefundWindowClosed();',
        },
        run('./gradlw test', 'bash: ./gradlw: No such file or directory', 127),
        run(
          './gradlew test',
          'OrderEventsTest > publishesRefundEvent() FAILED\n    org.awaitility.core.ConditionTimeoutException: Condition was not fulfilled within 2 seconds.\n\n148 tests completed, 1 failed',
          1,
        ),
        run('./gradlew test', TEST_OK),
        { say: 'Refunds older than 90 days are rejected.' },
      ],
    },
  ],
};
