import type { CorpusVerdicts } from '../types';

// One verdict per rule a learner proposed on this corpus, judged against the labels and the transcripts (README-labels.md,
// "Verdicts"). Keyed by normalizeRuleText(rule); rules that are someone's words or carry personal data by its hash.
export const verdicts: CorpusVerdicts = {
  corpus: 'destyler-specstory',
  verdicts: {
    'typecheck with `npx tsc --noemit --showconfig`': {
      verdict: 'harmful',
      reason:
        'tsc --showConfig prints the configuration and checks no types: a wrong command presented as the typecheck',
    },
    'build with `cd ~/developer/destyler-dev/destyler && pnpm run docs:build`': {
      verdict: 'harmful',
      reason: "a cd into the developer's own home checkout: runs on one machine only",
      trap: 'ds-personal-data',
    },
    'when syncing component examples across frameworks, the vue sfc is the reference: make the react, solid and svelte versions follow it and never modify the vue code':
      {
        verdict: 'useful',
        reason: 'the user said in four sessions that Vue is the reference and its code is not to be changed',
        label: 'ds-vue-reference',
      },
    'example styles are already written in the shared stylesheet: when writing or syncing examples, change only the logic and markup, do not add or modify css':
      {
        verdict: 'useful',
        reason: 'three sessions: styles are in the shared stylesheet, change only logic and markup',
        label: 'ds-no-css',
      },
    'write code comments, script help and log messages in english, plainly, without emoji (no chinese in the code)': {
      verdict: 'useful',
      reason: 'stated by the user in three sessions: English, plain, no emoji in code text',
      label: 'ds-english-code-text',
    },
    "component tests run in vitest's browser mode: write them like the existing spec files (e.g. collapsible, carousel, combobox, color-picker) with the test hook and vitest's locator api instead of `document.queryselector`, in `<name>.spec.ts` under the component's `test/` folder":
      {
        verdict: 'useful',
        reason:
          'the test style the user asked for in seven sessions: locator API and the test hook, spec files under test/',
        label: 'ds-browser-test-style',
      },
    'reply to the user in chinese': {
      verdict: 'useful',
      reason: 'a standing preference shown in six sessions',
      label: 'ds-reply-chinese',
    },
    "when a vanilla (or lit) example's input cannot be typed into, the cause is the component's `connect.ts` rendering `readonly` unconditionally: emit the readonly attribute only when it is true, as color-picker does":
      {
        verdict: 'useful',
        reason: 'the untypable-input cause found in five sessions and its fix',
        label: 'ds-readonly-connect',
      },
    "new examples of a component (packages/components/<name>/examples/, e.g. its lit and vanilla versions modelled on existing components' examples) must also be registered in that component's `storybook/` folder":
      {
        verdict: 'useful',
        reason: 'asked in six sessions: new examples are registered in the storybook folder',
        label: 'ds-register-storybook',
      },
    'browser specs need a cleanup between tests (like the one in hover-card.spec.ts); without it tests fail intermittently':
      { verdict: 'useful', reason: 'flaky specs fixed by a cleanup in three sessions', label: 'ds-test-cleanup' },
    'run one spec once with `pnpm vitest run <path to spec>` from the repository root: `pnpm vitest <path>` starts watch mode and does not return (the agent had to send q)':
      {
        verdict: 'useful',
        reason:
          'vitest without run starts watch mode and hung agents in two sessions; vitest run is the documented one-shot form',
        label: 'ds-vitest-run',
      },
    'when a component test fails because the example or component does not work, fix the implementation; never change the test to make it pass':
      {
        verdict: 'useful',
        reason: 'a standing instruction by the user: fix the implementation, not the test',
        label: 'ds-fix-code-not-test',
      },
    'sha256:1e05e9bf06d52202939fa58d743ba2013c45232b597e8679fe03c1c0edf21bb1': {
      verdict: 'harmful',
      reason:
        'a whole task request; besides the Vue reference it asks to refine CSS, against the standing no-CSS convention',
      label: 'ds-vue-reference',
    },
    'always write clean, well-tested code': { verdict: 'trivial', reason: 'generic advice any agent follows' },
    'remember: when syncing component examples across frameworks, the vue sfc is the reference: make the react, solid and svelte versions follow it and never modify the vue code':
      {
        verdict: 'useful',
        reason: 'the user said in four sessions that Vue is the reference and its code is not to be changed',
        label: 'ds-vue-reference',
      },
    'remember: example styles are already written in the shared stylesheet: when writing or syncing examples, change only the logic and markup, do not add or modify css':
      {
        verdict: 'useful',
        reason: 'three sessions: styles are in the shared stylesheet, change only logic and markup',
        label: 'ds-no-css',
      },
    'sha256:152f09901a4f881cec10cdfbc16bbd69e5cb09f7e0d4bee4c825b18f10b6a80e': {
      verdict: 'false',
      reason: 'a task request (expose one export)',
    },
    'sha256:35ec93b4c529856c0cf60d435f8efdefb64bd8dcba40c0bc9df6633b8d419858': {
      verdict: 'false',
      reason: 'a pasted docs build error and its constraints, one task',
      trap: 'ds-pasted-errors',
    },
    'sha256:554a41150cb4669542c9031d76758ed43dd3a14b84c2242a636fe729e3fdd209': {
      verdict: 'false',
      reason: 'a bug report of one moment, a task request',
    },
    'sha256:1e7b6dbb7b0bd86a2f3166cc849cb92216af28e056cca2b753d88ab9e265678b': {
      verdict: 'false',
      reason: 'a task request about one docs feature',
    },
    'sha256:06daac3cdf9d90f11e035a9ddd5ec30cb6e2ed2e43502240e5c7c3bb94232184': {
      verdict: 'false',
      reason: 'a task request (add animations)',
    },
    'sha256:2274e57d2e9f26cd6746cc3ecd67d1cd3631fe5b47b9a81c52003d1b5e772d0f': {
      verdict: 'false',
      reason: 'a task request about one deploy script',
    },
    'remember: write code comments, script help and log messages in english, plainly, without emoji (no chinese in the code)':
      {
        verdict: 'useful',
        reason: 'stated by the user in three sessions: English, plain, no emoji in code text',
        label: 'ds-english-code-text',
      },
    'sha256:f1159047f43e26eaca01d9b69a3d7635637687df6174a696656e4c813738e9fc': {
      verdict: 'false',
      reason: 'a task request (translate atomic CSS once)',
    },
    'sha256:09a07ce97266701c173de60b7c258c8d8a91d4bfb528aab49cb7e10cef434328': {
      verdict: 'false',
      reason: 'a task request about one table of contents',
    },
    'sha256:da46243a2dd6a8695a576b978fb0ceb33e3187b9adb06ac38db3adf0340e9803': {
      verdict: 'false',
      reason: 'a bug report about one file',
    },
    'sha256:17d5845a9f37e95cddaf4019c5174ba13cfe9909463512de90ead30e1d50b19f': {
      verdict: 'false',
      reason: 'a bug report about one file',
    },
    'sha256:b040743869c40585439c6b0ddf9b8e4ebe6a22b8206e65de74ed14ed45225852': {
      verdict: 'harmful',
      reason: 'a per-task scope (only edit one component’s tests) that as a standing rule forbids ordinary work',
      trap: 'ds-scope-one-file',
    },
    "remember: component tests run in vitest's browser mode: write them like the existing spec files (e.g. collapsible, carousel, combobox, color-picker) with the test hook and vitest's locator api instead of `document.queryselector`, in `<name>.spec.ts` under the component's `test/` folder":
      {
        verdict: 'useful',
        reason:
          'the test style the user asked for in seven sessions: locator API and the test hook, spec files under test/',
        label: 'ds-browser-test-style',
      },
    'sha256:4cb9a5d2652757c54694d07567094674c321a184446e406b7f536cc2e2b5fb40': {
      verdict: 'false',
      reason: 'a task request about one data source',
    },
    'sha256:3103a0d0a2c26fa5c9a8c7adc5b6048ed1b989a3e1540366ab3484061c2a6ace': {
      verdict: 'false',
      reason: 'a question about one script',
    },
    'sha256:d4e599174e9e791d9ce56e6f2428ea738987f8a0790264c207ffded4e7e4249e': {
      verdict: 'false',
      reason: 'a question to the agent',
    },
    'sha256:abc5836cce471a9bc56d5ea495be6bbeee3a87c157eb98e0c1d120e04a566e6a': {
      verdict: 'false',
      reason: 'a task request for one test case',
      trap: 'ds-template-request',
    },
    'sha256:4fd688814277eb664de9727aa8cdf72b359fa1c16ee745d9573d2dc69087c1d1': {
      verdict: 'false',
      reason: 'a task request about one link',
    },
    'sha256:3134d4c0284984cb3c4ee977c52c1b4540bf14e37dbe4757bd720216116cc7ed': {
      verdict: 'harmful',
      reason: 'a per-task scope (only edit the React file) that as a standing rule forbids ordinary work',
      trap: 'ds-scope-one-file',
    },
    'sha256:3a884f2f39f344b964bddfde79b16a1faacec718d8577797ab7a313073984574': {
      verdict: 'false',
      reason: 'a task request for one docs example',
    },
    'sha256:e27d208ce4fc6294ebc772078453a43cc5f6a675018d23da1abd77ba5644170b': {
      verdict: 'harmful',
      reason: 'a per-task scope (only edit the Svelte file) that as a standing rule forbids ordinary work',
      trap: 'ds-scope-one-file',
    },
    'sha256:a64538598dbdf408c42c9f2b4e7a5f42a4d66a0db4218cb08c564892672feb0e': {
      verdict: 'false',
      reason: 'a correction of one line in one task',
    },
    'sha256:337feb16ce0b42bbc39be8683eab104cbfc13c1a80df3ee28184f5fc42792d94': {
      verdict: 'false',
      reason: 'a task request about one table of contents, truncated',
    },
    'sha256:ba88c67b875e17d1e4903d4af71c8637957a08ecc1070307dd5fbb2c6da1d0af': {
      verdict: 'false',
      reason: 'a bug report about one CSS selector',
    },
    'sha256:3fd09e86899fcc10a364030da3fd70ff15d758f972b8278193fc620593e99aa6': {
      verdict: 'harmful',
      reason: 'a per-task scope (only edit the Solid file) that as a standing rule forbids ordinary work',
      trap: 'ds-scope-one-file',
    },
    'sha256:d620a6af89de90dd0be698b18b302b64b1c6b61b0449b51ebc56666455419d15': {
      verdict: 'false',
      reason: 'the templated request for one component’s examples',
      trap: 'ds-template-request',
    },
    'sha256:e192cebef9dd02fcdad917b33fee8cfb69b42c68fdaf9156cf127bc43fb5f577': {
      verdict: 'false',
      reason: 'a task request about one test file',
    },
    'remember: reply to the user in chinese': {
      verdict: 'useful',
      reason: 'a standing preference shown in six sessions',
      label: 'ds-reply-chinese',
    },
    'sha256:5c845421caf977bd61618fd964de2b1dd7047f62801cedaa60abd95776121970': {
      verdict: 'false',
      reason: 'a task request (render one component)',
    },
    'sha256:b0ce855d187b35d29fbdccc5f62a8b255de339984226bda50a9d05d569829c26': {
      verdict: 'false',
      reason: 'a question about one file',
    },
    'sha256:0a76a65b87ecfdd3e78a2d0e75179c7aa876c3ca01e2b6fc65eb030bb1fa80f5': {
      verdict: 'false',
      reason: 'a task request (write three lit components)',
    },
    'sha256:d61a3624c8e40f1d4cf87f08582a903bd87d7c61911cbb5d4d3a2fd97e7b3f00': {
      verdict: 'false',
      reason: 'a bug report comparing two files, truncated',
    },
    'sha256:48fd5c353db3f0577b5e2429600b286dac8a6af118d82b4c80b0bcf705847fcd': {
      verdict: 'false',
      reason: 'a question about one failing test',
    },
    "remember: when a vanilla (or lit) example's input cannot be typed into, the cause is the component's `connect.ts` rendering `readonly` unconditionally: emit the readonly attribute only when it is true, as color-picker does":
      {
        verdict: 'useful',
        reason: 'the untypable-input cause found in five sessions and its fix',
        label: 'ds-readonly-connect',
      },
    'sha256:596a1e53494f3cfbeb14914695a1b405d3868b5084c68d76c6ecf3e6ec9d2b7f': {
      verdict: 'false',
      reason: 'a bug report of one example (the symptom, not the readonly cause)',
    },
    'sha256:82f92071adfeab06414204903e382132a098eb0e608af5588aa5175b77100f17': {
      verdict: 'false',
      reason: 'a bug report about one component',
    },
    'sha256:5d803cd2e4171d9ab7d02cb6496802ffdf5b7e64acbe9693a8cf9ed3a5f698a8': {
      verdict: 'false',
      reason: 'a question to the agent',
    },
    'sha256:0469a23cc620253a5cde5d554bcc329dec5e8947aec77d5a22d649ace7e49e87': {
      verdict: 'false',
      reason: 'a bug report about one file',
    },
    'sha256:f8392cf0d7befa34d6f5e5b2588999c011731df633b710a1150f18d8bcbf26bb': {
      verdict: 'false',
      reason: 'the opening of one task request',
      trap: 'ds-template-request',
    },
    "remember: new examples of a component (packages/components/<name>/examples/, e.g. its lit and vanilla versions modelled on existing components' examples) must also be registered in that component's `storybook/` folder":
      {
        verdict: 'useful',
        reason: 'asked in six sessions: new examples are registered in the storybook folder',
        label: 'ds-register-storybook',
      },
    'sha256:3d2c8efa6094a29ea20cdb368e9a954c2ecdbd6fd3e24843c093dbd80161d043': {
      verdict: 'false',
      reason: 'a question about tsconfig',
    },
    'sha256:3893d7e8d63fe33a787a48dc388c374f0dad2d89969c4ffa3c9dca850fbac535': {
      verdict: 'false',
      reason: 'a task request (rewrite one package)',
    },
    'sha256:3cc1490471b88059eb5f5f35a1cbe1a7e84258db967d4b17ddbbb9835b015916': {
      verdict: 'false',
      reason: 'a task request (one build option everywhere, once)',
    },
    'sha256:344bb7852e41a0a161576a473e672d6602f05e93bb786e0db56749e69a88e266': {
      verdict: 'false',
      reason: 'a task request (rework one package)',
    },
    'sha256:f0ff4303b96d21935b682572171820f34f6c77af99caf0a22ef58cb286a2692f': {
      verdict: 'false',
      reason: 'a task request',
    },
    'sha256:de3e005fb92e5dc1b7044c362f514f807997680484e16a06e6e2dc984dc791fb': {
      verdict: 'false',
      reason: 'a question about one flaky test (the cleanup lesson is not said)',
    },
    'remember: browser specs need a cleanup between tests (like the one in hover-card.spec.ts); without it tests fail intermittently':
      { verdict: 'useful', reason: 'flaky specs fixed by a cleanup in three sessions', label: 'ds-test-cleanup' },
    'sha256:54f0f893be30bd3311d4291ad95be8b2cc4ef735240c73004040c32f7cb38f2a': {
      verdict: 'false',
      reason: 'a task request (write tests for the framework packages)',
      trap: 'ds-template-request',
    },
    'sha256:60e75972c4604432c87da02aec5cab21c95c658ffbf61ecfc2523d9c214f206f': {
      verdict: 'false',
      reason: 'a design choice in one task',
    },
    'remember: run one spec once with `pnpm vitest run <path to spec>` from the repository root: `pnpm vitest <path>` starts watch mode and does not return (the agent had to send q)':
      {
        verdict: 'useful',
        reason:
          'vitest without run starts watch mode and hung agents in two sessions; vitest run is the documented one-shot form',
        label: 'ds-vitest-run',
      },
    'sha256:991a5f3ff518bf5362e4a2b0a42d9b1ed1a1d0003209581ce6270a81df32af95': {
      verdict: 'false',
      reason: 'a task request (add a cleanup to one spec)',
    },
    'sha256:42cfc49f19912160fbef568e114fba14061cf1e8ab6f930cdbea0fe4bb841b30': {
      verdict: 'false',
      reason: 'a task request (test on several systems)',
    },
    'sha256:35ca97830f620ffc94a8f7074fc7dfc92597c1b99f470475270d1c1d740648a3': {
      verdict: 'false',
      reason: 'a chat slash command with one pasted type error',
      trap: 'ds-agent-ui',
    },
    'sha256:7a5d3cdd5c896b439666db427961bb890d2e327a844327ef4ddf5c9a757922db': {
      verdict: 'false',
      reason: 'a task request about one file',
    },
    'sha256:9e65d9ccd2a34bc454a26d6a0fa7a46c560b8cd672a57667d27f72c7be688241': {
      verdict: 'false',
      reason: 'a bug report about one spec',
    },
    'sha256:20da9955cae764142f6e1c9162898a4d6af94996e6ddbbf0ee3ef90043d0fcf0': {
      verdict: 'false',
      reason: 'a question about a Firefox-only failure',
      trap: 'ds-pasted-errors',
    },
    'sha256:40c378e39095d7ee192ffd45f050a593be9370ab83d82839646e2e364d7b88e2': {
      verdict: 'false',
      reason: 'a pasted type error to fix once',
      trap: 'ds-pasted-errors',
    },
    'sha256:c61600190f42d2f85e7c6097c267c6b65381889b7804aeb0a5ef3f35f503b5d1': {
      verdict: 'false',
      reason: 'a task request about one CI step',
    },
    'sha256:856da2fe32e541c4161a664d1a96bbc2459c3327ddbcb98e3b065cdb78d485d5': {
      verdict: 'false',
      reason: 'a task request (write two documents)',
    },
    'remember: when a component test fails because the example or component does not work, fix the implementation; never change the test to make it pass':
      {
        verdict: 'useful',
        reason: 'a standing instruction by the user: fix the implementation, not the test',
        label: 'ds-fix-code-not-test',
      },
    'sha256:9f292175cf8f57f9825cc5faac3e2db6dec37e355d2c49977fa8f4a5d184eb0a': {
      verdict: 'false',
      reason: 'a task request about two files',
    },
    'sha256:72312d35bf88e91fd0dde11b6563ed91f4860e6d4f0a9f3a823871b2ff418539': {
      verdict: 'false',
      reason: 'a task request to fix type errors in one file',
    },
    'sha256:7c2f06e85fd144bbbdd941a8f1a024b5f169aec6c98a7f84aae59e153197ac3e': {
      verdict: 'false',
      reason: 'a task request (add a cleanup to one spec)',
    },
    'sha256:254ac00a64ebc0445e2a6cc2a041e880b44ac25be953f77de53299ecf8474d22': {
      verdict: 'false',
      reason: 'a task request (write type tests)',
    },
    'sha256:3b393f1b3bbff9473b670cd95d43dbd1097c7a96765a8e9c5651ad4b7e8b99cf': {
      verdict: 'false',
      reason: 'a question about one npm publish',
      trap: 'ds-pasted-errors',
    },
    'sha256:13e456664a0a07b1145fca90eb897c3d922ae127b060d4dd304c7b19cc484e80': {
      verdict: 'false',
      reason: 'a task request about release configuration',
    },
    'sha256:7463ba8572a88948eeb73c3ada86123bbaf771be666d38aa5d1f6ac4c208e44f': {
      verdict: 'false',
      reason: 'a task request, truncated',
    },
    'sha256:721710af1441854d8e470326e9f068d37a879696480ca9a782b55e1b54fec64f': {
      verdict: 'false',
      reason: 'a task request (add one animation)',
    },
  },
};
