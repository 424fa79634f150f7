import { describe, expect, it } from 'vitest';
import {
  FALLBACK_FRAMES,
  normaliseClassName,
  normaliseMethodName,
  normaliseStackTrace,
  packagePrefixOf,
  pluginPackageOf,
} from './stack-trace';

/** A trace as the IDE's `throwableText` has it (JDK 21 format, module and loader prefixes). */
const TRACE = [
  'java.lang.IllegalStateException: Cannot read /home/alice/project/build.gradle: token 17',
  '\tat com.acme.lint.GradleReader.read(GradleReader.kt:42)',
  '\tat com.acme.lint.GradleReader.access$000(GradleReader.java:12)',
  '\tat com.acme.lint.LintAction$actionPerformed$1.invoke(LintAction.kt:77)',
  '\tat com.acme.lint.LintAction.actionPerformed$lambda$3(LintAction.kt:80)',
  '\tat com.acme.lint.LintAction$$Lambda/0x0000000801c3a448.run(Unknown Source)',
  '\tat com.intellij.openapi.actionSystem.ex.ActionUtil.performAction(ActionUtil.kt:311)',
  '\tat java.desktop/java.awt.EventQueue.dispatchEvent(EventQueue.java:781)',
  '\tat app//com.acme.lint.Worker.lambda$start$12(Worker.java:19)',
  '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
  'Caused by: java.io.FileNotFoundException: /home/alice/project/build.gradle (No such file)',
  '\tat java.base/java.io.FileInputStream.open0(Native Method)',
  '\tat com.acme.lint.io.Files$1.open(Files.java:30)',
  '\t... 9 more',
].join('\n');

describe('normalising a stack trace', () => {
  it('keeps the exception classes and the plugin’s own frames, without lines, lambdas and messages', () => {
    const normalised = normaliseStackTrace(TRACE, 'com.acme.lint');
    expect(normalised).toEqual({
      text: [
        'java.lang.IllegalStateException',
        'at com.acme.lint.GradleReader.read',
        'at com.acme.lint.LintAction$actionPerformed.invoke',
        'at com.acme.lint.LintAction.actionPerformed',
        'at com.acme.lint.LintAction$$Lambda.run',
        'at com.acme.lint.Worker.lambda$start',
        'caused by java.io.FileNotFoundException',
        'at com.acme.lint.io.Files.open',
      ].join('\n'),
      exceptionClass: 'java.lang.IllegalStateException',
      message: 'Cannot read /home/alice/project/build.gradle: token 17',
      pluginPackage: 'com.acme',
    });
  });

  it('gives two reports of one defect the same text though lines, lambda numbers and messages differ', () => {
    const later = TRACE.replaceAll(/:(\d+)\)/g, (_match, line: string) => `:${Number(line) + 7})`)
      .replace('actionPerformed$lambda$3', 'actionPerformed$lambda$5')
      .replace('LintAction$actionPerformed$1', 'LintAction$actionPerformed$2')
      .replace('0x0000000801c3a448', '0x00007f00aa0c1000')
      .replace('lambda$start$12', 'lambda$start$4')
      .replace('token 17', 'token 4')
      .replace('access$000', 'access$100')
      .replace('Files$1', 'Files$3')
      .replaceAll('\n', '\r\n');
    expect(normaliseStackTrace(later, 'com.acme.lint')?.text).toBe(
      normaliseStackTrace(TRACE, 'com.acme.lint')?.text,
    );
  });

  it('tells apart traces whose own frames or causes differ', () => {
    const base = normaliseStackTrace(TRACE, 'com.acme.lint')?.text;
    expect(
      normaliseStackTrace(TRACE.replace('GradleReader.read', 'GradleReader.parse'), 'com.acme.lint')?.text,
    ).not.toBe(base);
    expect(
      normaliseStackTrace(
        TRACE.replace('java.io.FileNotFoundException', 'java.nio.file.AccessDeniedException'),
        'com.acme.lint',
      )?.text,
    ).not.toBe(base);
    expect(
      normaliseStackTrace(TRACE.replace('IllegalStateException', 'IllegalArgumentException'), 'com.acme.lint')
        ?.text,
    ).not.toBe(base);
  });

  it('ignores platform frames, so a change in the IDE does not split a group', () => {
    const otherIde = TRACE.replace('ActionUtil.performAction', 'ActionUtil.performActionDumbAware').replace(
      'java.desktop/java.awt.EventQueue.dispatchEvent',
      'java.desktop/java.awt.EventQueue.dispatchEventImpl',
    );
    expect(normaliseStackTrace(otherIde, 'com.acme.lint')?.text).toBe(
      normaliseStackTrace(TRACE, 'com.acme.lint')?.text,
    );
  });

  it('collapses recursion, so traces cut at different depths group together', () => {
    const recursion = (depth: number) =>
      [
        'java.lang.StackOverflowError',
        ...Array.from({ length: depth }, (_, index) =>
          index % 2
            ? '\tat com.acme.tree.Walker.visit(Walker.java:10)'
            : '\tat com.acme.tree.Walker.enter(Walker.java:20)',
        ),
      ].join('\n');
    expect(normaliseStackTrace(recursion(1024), 'com.acme.tree')?.text).toBe(
      'java.lang.StackOverflowError\nat com.acme.tree.Walker.enter\nat com.acme.tree.Walker.visit',
    );
    expect(normaliseStackTrace(recursion(1023), 'com.acme.tree')?.text).toBe(
      normaliseStackTrace(recursion(1024), 'com.acme.tree')?.text,
    );
  });

  it('leaves suppressed exceptions out and reads every cause', () => {
    const trace = [
      'java.lang.RuntimeException: outer',
      '\tat com.acme.a.Outer.run(Outer.java:1)',
      '\tSuppressed: java.io.IOException: close failed',
      '\t\tat com.acme.a.Closer.close(Closer.java:5)',
      '\tCaused by: java.lang.Error: nested',
      '\t\tat com.acme.a.Nested.run(Nested.java:5)',
      'Caused by: java.lang.IllegalArgumentException: inner',
      '\tat com.acme.a.Inner.check(Inner.java:9)',
      'Caused by: java.lang.NullPointerException',
      '\tat com.acme.a.Deep.get(Deep.java:3)',
    ].join('\n');
    expect(normaliseStackTrace(trace, 'com.acme.a')?.text).toBe(
      [
        'java.lang.RuntimeException',
        'at com.acme.a.Outer.run',
        'caused by java.lang.IllegalArgumentException',
        'at com.acme.a.Inner.check',
        'caused by java.lang.NullPointerException',
        'at com.acme.a.Deep.get',
      ].join('\n'),
    );
  });

  it('reads a trace after a log prefix and a multi-line message', () => {
    const trace = [
      '2026-03-01 12:00:00,000 [  1234]  ERROR - #c.a.l.Lint - boom',
      'com.intellij.diagnostic.PluginException: first line',
      'second line of the message with at sign: at home',
      '\tat com.acme.lint.Lint.run(Lint.kt:5)',
    ].join('\n');
    expect(normaliseStackTrace(trace, 'com.acme.lint')).toEqual({
      text: 'com.intellij.diagnostic.PluginException\nat com.acme.lint.Lint.run',
      exceptionClass: 'com.intellij.diagnostic.PluginException',
      message: 'first line',
      pluginPackage: 'com.acme',
    });
  });

  it('takes the top frames when the plugin’s package never shows, and the first non-platform frame’s package when the id is not one', () => {
    const platformOnly = [
      'java.lang.AssertionError: Assertion failed',
      '\tat com.intellij.openapi.diagnostic.Logger.assertTrue(Logger.java:1)',
      '\tat com.intellij.psi.impl.PsiManagerImpl.check(PsiManagerImpl.java:2)',
      '\tat com.intellij.psi.impl.PsiManagerImpl.check2(PsiManagerImpl.java:3)',
      '\tat com.intellij.openapi.application.impl.ApplicationImpl.run(ApplicationImpl.java:4)',
      '\tat com.intellij.openapi.application.impl.ApplicationImpl$1.run(ApplicationImpl.java:5)',
      '\tat com.intellij.openapi.application.impl.ApplicationImpl$2.run(ApplicationImpl.java:6)',
      '\tat java.base/java.lang.Thread.run(Thread.java:1583)',
    ].join('\n');
    const fallback = normaliseStackTrace(platformOnly, 'com.acme.lint');
    expect(fallback?.pluginPackage).toBe('');
    expect(fallback?.text.split('\n')).toHaveLength(1 + FALLBACK_FRAMES);

    const namedPlugin = [
      'java.lang.NullPointerException',
      '\tat com.intellij.util.Alarm.run(Alarm.java:1)',
      '\tat io.acme.widgets.Panel.paint(Panel.kt:3)',
      '\tat io.acme.widgets.Panel$1.run(Panel.kt:9)',
    ].join('\n');
    expect(normaliseStackTrace(namedPlugin, 'Acme Widgets')).toMatchObject({
      pluginPackage: 'io.acme',
      text: 'java.lang.NullPointerException\nat io.acme.widgets.Panel.paint\nat io.acme.widgets.Panel.run',
    });
  });

  it('is not fooled by text that is not a Java stack trace', () => {
    expect(normaliseStackTrace('', 'com.acme')).toBeUndefined();
    expect(normaliseStackTrace('something went wrong\nplease help', 'com.acme')).toBeUndefined();
    expect(normaliseStackTrace('\u0000\u0001binary', 'com.acme')).toBeUndefined();
  });
});

describe('generated names', () => {
  it('lose their numbers', () => {
    expect(normaliseClassName('com.acme.Foo$1')).toBe('com.acme.Foo');
    expect(normaliseClassName('com.acme.Foo$2$1')).toBe('com.acme.Foo');
    expect(normaliseClassName('com.acme.Foo$1Local')).toBe('com.acme.Foo$Local');
    expect(normaliseClassName('com.acme.Foo$Inner')).toBe('com.acme.Foo$Inner');
    expect(normaliseClassName('com.acme.Foo$$Lambda$17/0x0000000800c0b448')).toBe('com.acme.Foo$$Lambda');
    expect(normaliseClassName('com.acme.Foo$$Lambda/0x00007f0001')).toBe('com.acme.Foo$$Lambda');
    expect(normaliseClassName('com.acme.Foo$bar$lambda$12')).toBe('com.acme.Foo$bar');
    expect(normaliseClassName('com.acme.Foo$bar$lambda-3')).toBe('com.acme.Foo$bar');
    expect(normaliseClassName('com.sun.proxy.$Proxy123')).toBe('com.sun.proxy.$Proxy');
    expect(normaliseClassName('jdk.proxy2.$Proxy45')).toBe('jdk.proxy.$Proxy');
    expect(normaliseClassName('jdk.internal.reflect.GeneratedMethodAccessor40')).toBe(
      'jdk.internal.reflect.GeneratedMethodAccessor',
    );
    expect(normaliseClassName('com.acme.Service$$EnhancerByCGLIB$$1a2b3c4d')).toBe(
      'com.acme.Service$$EnhancerByCGLIB',
    );
    expect(normaliseClassName('com.acme.Service$ByteBuddy$Ab12Cd')).toBe('com.acme.Service$ByteBuddy');
  });

  it('keep the method a lambda belongs to', () => {
    expect(normaliseMethodName('lambda$foo$3')).toBe('lambda$foo');
    expect(normaliseMethodName('lambda$static$0')).toBe('lambda$static');
    expect(normaliseMethodName('foo$lambda$12')).toBe('foo');
    expect(normaliseMethodName('foo$lambda-12')).toBe('foo');
    expect(normaliseMethodName('invokeSuspend')).toBe('invokeSuspend');
    expect(normaliseMethodName('foo$default')).toBe('foo$default');
  });

  it('drop synthetic accessors and module, loader and hidden-class prefixes', () => {
    const trace = [
      'java.lang.Error',
      '\tat com.acme.x.A.access$000(A.java:1)',
      '\tat com.acme.x.A.access$getField$p(A.kt:1)',
      '\tat app//com.acme.x.B.run(B.java:2)',
      '\tat com.acme.x@1.2.3/com.acme.x.C.run(C.java:3)',
      '\tat java.base/java.lang.invoke.LambdaForm$DMH/0x0000000800c0c000.invokeStatic(LambdaForm$DMH)',
      '\tat com.acme.x.D.run(D.java:4) ~[acme.jar:?]',
    ].join('\n');
    expect(normaliseStackTrace(trace, 'com.acme.x')?.text).toBe(
      'java.lang.Error\nat com.acme.x.A.access$getField$p\nat com.acme.x.B.run\nat com.acme.x.C.run\nat com.acme.x.D.run',
    );
  });
});

describe('the plugin’s package', () => {
  it('comes from the plugin id, with three segments under shared namespaces', () => {
    expect(packagePrefixOf('com.acme.lint.Rule')).toBe('com.acme');
    expect(packagePrefixOf('com.github.alice.tool.Rule')).toBe('com.github.alice');
    expect(packagePrefixOf('com.github.Rule')).toBe('');
    expect(packagePrefixOf('Rule')).toBe('');
    expect(
      pluginPackageOf('com.github.alice.tool', ['com.github.bob.Lib', 'com.github.alice.tool.Main']),
    ).toBe('com.github.alice');
    expect(pluginPackageOf('org.rust.lang', ['org.rust.ide.Annotator'])).toBe('org.rust');
    expect(pluginPackageOf('com.acme.my-tool', ['com.acme.tool.Main'])).toBe('com.acme');
  });

  it('falls back to the first frame outside the platform, then to none', () => {
    expect(pluginPackageOf('String Manipulation', ['java.lang.String', 'osmorc.strings.Action'])).toBe(
      'osmorc.strings',
    );
    expect(pluginPackageOf('com.acme.lint', ['kotlin.collections.A', 'org.jetbrains.concurrency.B'])).toBe(
      '',
    );
  });
});
