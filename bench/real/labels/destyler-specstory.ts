import type { CorpusLabels } from '../types';

// SpecStory exports of Copilot Chat sessions on destyler (prompts in Chinese). Sessions are named by their file under
// .specstory/history/; "U<n>" is the n-th user turn. Terminal commands are recorded without their output or exit status.
const s = (name: string) => `${name}.md`;

export const labels: CorpusLabels = {
  corpus: 'destyler-specstory',
  summary:
    'One author porting component examples across frameworks and writing browser tests, one component per session. ' +
    'What recurs: Vue is the reference when syncing examples, answer in Chinese but write code comments and script ' +
    'text in English without emoji, register new examples in the component’s storybook folder, the unconditional ' +
    '`readonly` in connect.ts that makes vanilla inputs untypable, browser tests written with the locator API and a ' +
    'cleanup, vitest started in watch mode. Most turns are the same templated request for another component; terminal ' +
    'output is not recorded, so no command is known to have succeeded.',
  lessons: [
    {
      id: 'ds-vue-reference',
      statement:
        'When syncing component examples across frameworks, the Vue SFC is the reference: make the React, Solid and ' +
        'Svelte versions follow it and never modify the Vue code.',
      kind: 'convention',
      sessions: [
        {
          session: s('2025-07-30_12-33Z-帮我将这些-svelte-和-solid-还有-react-的组件使用-vue-的-sfc-进行同步'),
          where: 'U2',
        },
        {
          session: s('2025-07-30_13-50Z-帮我将这些-svelte-和-solid-还有-react-的组件使用-vue-的-sfc-进行同步'),
          where: 'U1',
        },
        { session: s('2025-07-30_14-37Z-按照-vue-进行同步就好了'), where: 'U1' },
        { session: s('2025-08-01_06-53Z-帮我将-sfc中的unocss迁移成原生的css,我需要组件形式的css'), where: 'U2' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: {
        all: [
          /\bvue\b/i,
          /react|solid|svelte/i,
          /reference|standard|source of truth|canonical|(do not|don't|never) (change|modify|edit|touch)/i,
        ],
      },
    },
    {
      id: 'ds-reply-chinese',
      statement: 'Reply to the user in Chinese.',
      kind: 'convention',
      sessions: [
        { session: s('2025-11-14_14-55Z-编写面包屑组件示例代码'), where: 'U7' },
        { session: s('2025-11-18_05-17Z-vanilla-color-picker-input-issue'), where: 'U3' },
        { session: s('2025-11-24_06-08Z-为二维码组件编写测试案例'), where: 'U4' },
        { session: s('2025-12-06_11-28Z-解决-svelte-包编译问题'), where: 'U4' },
        { session: s('2025-12-06_12-10Z-npm-发布冲突错误解决方案'), where: 'U2' },
        { session: s('2025-12-06_12-57Z-vitest环境错误及报告配置问题'), where: 'U2' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/chinese|中文/i, /reply|answer|respond|explain|talk|communicat|回答|对话/i] },
    },
    {
      id: 'ds-english-code-text',
      statement:
        'Write code comments, script help and log messages in English, plainly, without emoji (no Chinese in the code).',
      kind: 'convention',
      sessions: [
        { session: s('2025-10-08_10-17Z-压缩脚本适配与功能扩展建议'), where: 'U2' },
        { session: s('2025-10-08_11-54Z-为脚本添加注释和说明'), where: 'U3' },
        { session: s('2025-10-08_12-14Z-部署脚本参数化与功能实现'), where: 'U2' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/english|emoji/i, /comment|message|log|help|script|code/i] },
    },
    {
      id: 'ds-register-storybook',
      statement:
        'New examples of a component (packages/components/<name>/examples/, e.g. its lit and vanilla versions modelled on ' +
        "existing components' examples) must also be registered in that component's `storybook/` folder.",
      kind: 'workflow',
      sessions: [
        { session: s('2025-11-14_12-39Z-为checkbox组件编写lit和vanilla示例'), where: 'U2' },
        { session: s('2025-11-17_14-25Z-编写clipboard组件的lit和vanilla示例'), where: 'U2' },
        { session: s('2025-11-21_10-56Z-编写-separator-组件的示例代码'), where: 'U1' },
        { session: s('2025-11-22_02-35Z-编写和注册-toast-组件示例'), where: 'U1' },
        { session: s('2025-11-22_14-37Z-编写和注册-tour-组件示例'), where: 'U1' },
        { session: s('2025-11-22_16-21Z-编写树组件示例并注册到-storybook'), where: 'U1' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/storybook/i, /regist|add (it|them|the examples?) to|stories/i] },
    },
    {
      id: 'ds-readonly-connect',
      statement:
        "When a vanilla (or lit) example's input cannot be typed into, the cause is the component's `connect.ts` " +
        'rendering `readonly` unconditionally: emit the readonly attribute only when it is true, as color-picker does.',
      kind: 'pitfall',
      sessions: [
        { session: s('2025-11-19_01-51Z-修复-vanilla-combobox-的输入和选项问题'), where: 'U4-U6' },
        { session: s('2025-11-20_02-45Z-编写-edit-组件的示例代码'), where: 'U3' },
        { session: s('2025-11-21_06-04Z-number-input-examples-in-lit-and-vanilla'), where: 'U2-U3' },
        { session: s('2025-11-21_06-51Z-编写otp-input组件的lit和vanilla示例'), where: 'U2' },
        { session: s('2025-11-18_07-07Z-解决输入框无法编辑的问题'), where: 'U1-U2 (color-picker, the first case)' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/readonly/i, /connect|input/i] },
    },
    {
      id: 'ds-browser-test-style',
      statement:
        "Component tests run in vitest's browser mode: write them like the existing spec files (e.g. collapsible, carousel, " +
        "combobox, color-picker) with the test hook and vitest's locator API instead of `document.querySelector`, in " +
        "`<name>.spec.ts` under the component's `test/` folder.",
      kind: 'convention',
      sessions: [
        { session: s('2025-08-09_10-34Z-完善-progress-组件的测试用例'), where: 'U2' },
        { session: s('2025-11-14_14-55Z-编写面包屑组件示例代码'), where: 'U3' },
        { session: s('2025-11-18_05-17Z-vanilla-color-picker-input-issue'), where: 'U4' },
        { session: s('2025-11-20_07-41Z-浮动面板示例的-lit-和-vanilla-实现'), where: 'U4' },
        { session: s('2025-11-20_09-04Z-hover-card-examples-in-lit-and-vanilla'), where: 'U5-U6' },
        { session: s('2025-11-21_12-50Z-编写signature组件的lit和vanilla示例'), where: 'U4' },
        { session: s('2025-11-24_10-26Z-编写测试实例的请求'), where: 'U2' },
      ],
      repeated: true,
      standing: true,
      repoStates: 'unknown',
      match: { all: [/querySelector|testhook|test hook|locator|getBy|browser mode/i] },
    },
    {
      id: 'ds-test-cleanup',
      statement:
        'Browser specs need a cleanup between tests (like the one in hover-card.spec.ts); without it tests fail ' +
        'intermittently.',
      kind: 'convention',
      sessions: [
        { session: s('2025-11-24_02-36Z-hover-card-test-failures-and-cleanup-solutions'), where: 'U1-U3' },
        { session: s('2025-11-25_00-37Z-dynamic-component-tests-cleanup-implementation'), where: 'U1-U2' },
        { session: s('2025-11-27_05-48Z-adding-cleanup-function-to-tooltip-tests'), where: 'U1' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/clean ?up/i, /test|spec/i] },
    },
    {
      id: 'ds-fix-code-not-test',
      statement:
        'When a component test fails because the example or component does not work, fix the implementation; never ' +
        'change the test to make it pass.',
      kind: 'convention',
      sessions: [{ session: s('2025-11-27_07-36Z-编写树组件的测试案例'), where: 'U4-U7' }],
      repeated: false,
      standing: true,
      repoStates: 'unknown',
      match: {
        all: [
          /test/i,
          /(do not|don't|never|instead of|rather than|not)\b.{0,40}\b(modify|change|edit|weaken|adjust|rewrite)\b.{0,30}\btests?\b|fix the (implementation|component|example|code)/i,
        ],
      },
    },
    {
      id: 'ds-vitest-run',
      statement:
        'Run one spec once with `pnpm vitest run <path to spec>` from the repository root: `pnpm vitest <path>` starts ' +
        'watch mode and does not return (the agent had to send q).',
      kind: 'command',
      sessions: [
        { session: s('2025-11-27_07-36Z-编写树组件的测试案例'), where: 'U1-U6: watch mode, q sent repeatedly' },
        { session: s('2025-11-26_06-16Z-修复-typescript-类型错误的方法讨论'), where: 'U1: watch mode, q sent' },
        { session: s('2025-11-20_14-53Z-编写-menu-组件的-lit-和-vanilla-示例'), where: 'U2: switches to vitest run' },
        { session: s('2025-11-26_08-52Z-为-@destyler-store-包编写-vitest-测试'), where: 'U1: vitest run' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: { all: [/vitest run/] },
      note: 'SpecStory does not record exit statuses: the command is the one agents settled on, not one known to pass.',
    },
    {
      id: 'ds-no-css',
      statement:
        'Example styles are already written in the shared stylesheet: when writing or syncing examples, change only the ' +
        'logic and markup, do not add or modify CSS.',
      kind: 'convention',
      sessions: [
        {
          session: s('2025-07-30_13-50Z-帮我将这些-svelte-和-solid-还有-react-的组件使用-vue-的-sfc-进行同步'),
          where: 'U2',
        },
        { session: s('2025-10-12_03-18Z-修改-react-组件以匹配-vue-行为'), where: 'U1' },
        { session: s('2025-10-17_13-03Z-在-lit-中实现类似-react-的状态管理'), where: 'U6' },
      ],
      repeated: true,
      standing: false,
      repoStates: 'unknown',
      match: {
        all: [/\bcss\b|style/i, /(do not|don't|never|no need to|without)\b.{0,30}\b(add|modify|change|write|touch)/i],
      },
    },
  ],
  traps: [
    {
      id: 'ds-template-request',
      kind: 'task-request',
      what: 'The templated request repeated for some forty components: write the lit and vanilla examples of <component> following two named components; then: write the full tests of <component>.',
      why: 'The same task for a different component each time; its repetition is not a rule.',
      sessions: [
        { session: s('2025-11-21_07-22Z-编写popover组件的lit和vanilla示例'), where: 'U1' },
        { session: s('2025-11-24_08-55Z-为计时器组件编写测试案例'), where: 'U1' },
      ],
      match: { all: [/write (the )?(lit and vanilla )?examples? (of|for) (the )?\w+|full (test|suite)/i] },
    },
    {
      id: 'ds-scope-one-file',
      kind: 'task-request',
      what: 'Per-task scope: "only modify the svelte file", "only the lit part", "don’t change code now, just explain".',
      why: 'Bounds of one request, naming a different file each time; as a rule it would forbid normal work.',
      sessions: [
        { session: s('2025-10-12_04-12Z-将-svelte-代码转换为-vue-风格'), where: 'U1' },
        { session: s('2025-11-25_03-18Z-空格键测试失败的原因及解决方案'), where: 'U2' },
        { session: s('2025-11-28_02-53Z-firefox-测试失败原因分析'), where: 'U2' },
      ],
      match: {
        all: [/only (modify|change|edit) (the )?(svelte|solid|react|lit|vue)|don.t (modify|change) (the )?code/i],
      },
    },
    {
      id: 'ds-agent-ui',
      kind: 'injected',
      what: 'Chat UI messages recorded as user turns: retry, continue iterating, enable a preview model, /fix and @workspace /fix.',
      why: 'Buttons and slash commands of the chat client; no content.',
      sessions: [
        { session: s('2025-11-14_02-19Z-测试案例无法通过的原因分析'), where: 'U2' },
        { session: s('2025-11-20_07-41Z-浮动面板示例的-lit-和-vanilla-实现'), where: 'U3' },
        { session: s('2025-11-25_00-37Z-dynamic-component-tests-cleanup-implementation'), where: 'U3' },
      ],
      match: { all: [/@agent|重试|继续迭代|enable .*preview|@workspace|^\/fix/i] },
    },
    {
      id: 'ds-pasted-errors',
      kind: 'one-off',
      what: 'Pasted errors of one moment: Astro build and hydration errors, TypeScript errors in one file, Firefox-only failures, an npm publish conflict.',
      why: 'Each is a bug to fix in that session; the fix belongs to the code.',
      sessions: [
        { session: s('2025-10-05_16-17Z-解决-astro-组件文档模块导入错误'), where: 'U1-U4' },
        { session: s('2025-11-28_02-53Z-firefox-测试失败原因分析'), where: 'U1-U2' },
        { session: s('2025-12-06_12-10Z-npm-发布冲突错误解决方案'), where: 'U1' },
      ],
      match: { all: [/astro|firefox|npm publish|E403|hydrat/i] },
    },
    {
      id: 'ds-retries',
      kind: 'reply',
      what: 'The same request sent five times in one session, complaints and frustration.',
      why: 'Retries and reactions; repetition inside one session is not evidence of a lesson.',
      sessions: [
        { session: s('2025-06-25_14-43Z-帮我根据增加更多的测试案例,让测试更加全面和健全'), where: 'U1-U5, U7' },
        { session: s('2025-10-26_03-47Z-lit和react中getpositionerprops的差异分析'), where: 'U5' },
      ],
      match: { all: [/lying|joking|骗|开玩笑/i] },
    },
    {
      id: 'ds-personal-data',
      kind: 'personal-data',
      what: "The author's home folder in every cd, and the shell prompt with user and host name in pasted logs.",
      why: 'Personal data; the working folder is the repository root.',
      sessions: [
        { session: s('2025-11-27_07-36Z-编写树组件的测试案例'), where: 'U1-U6' },
        { session: s('2025-10-17_06-22Z-astro-storybook构建错误及解决方案'), where: 'U1' },
      ],
      match: { all: [/\/Users\/|MacBook/i] },
    },
    {
      id: 'ds-sed-braces',
      kind: 'one-off',
      what: 'Escaping braces with sed in three .astro code-sample files.',
      why: 'One fix applied to three files in one session; the lesson, if any, belongs to those files.',
      sessions: [{ session: s('2025-12-01_01-38Z-astro-服务器端错误及解决方案'), where: 'U1-U3' }],
      match: { all: [/&#123;|&#125;|escape (the )?braces/i] },
    },
  ],
};
