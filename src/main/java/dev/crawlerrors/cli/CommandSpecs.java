package dev.crawlerrors.cli;

import java.util.Arrays;
import dev.crawlerrors.text.Release;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * picocli's model of the commands, built by hand: each command and option class adds its own
 * options to its command's {@link CommandSpec}, bound to its fields.
 *
 * <p>Why not picocli's annotations: reading them makes the JDK build an annotation instance, a
 * dynamic proxy, for each; it generates eight proxy classes at every start (the JVM's start-up
 * cache cannot hold them), and picocli then sets fields by reflection, which spins method-handle
 * classes. Both run the JDK's class-file library at every start; built here, a short import starts
 * sooner (BENCHMARKS.md).
 */
final class CommandSpecs {

    static final String VERSION = "crawl-errors " + Release.VERSION;

    private CommandSpecs() {
    }

    /**
     * A command that runs {@code command} (a {@link java.util.concurrent.Callable}), with
     * {@code -h, --help} and {@code -V, --version} as picocli's standard help options give them.
     * Every description given here and to the options below wraps at spaces only ({@link HelpText}).
     */
    static CommandSpec command(Object command, String name, String... description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(name).version(VERSION);
        spec.usageMessage().description(Arrays.stream(description).map(HelpText::unbreakable).toArray(String[]::new));
        HelpText.restoreIn(spec);
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class)
                .description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
                .description("Print version information and exit.").build());
        return spec;
    }

    /** {@code spec}'s list of exit codes, each {@code "code:what it means"}, in the order given. */
    static void exitCodes(CommandSpec spec, String... codes) {
        Map<String, String> list = new LinkedHashMap<>();
        for (String code : codes) {
            int colon = code.indexOf(':');
            list.put(code.substring(0, colon), HelpText.unbreakable(code.substring(colon + 1)));
        }
        spec.usageMessage().exitCodeListHeading("Exit codes:%n").exitCodeList(list);
    }

    /**
     * An option with a value of {@code type}, read and written through {@code get} and {@code set};
     * its initial value, which picocli sets before each parse, is the one {@code get} gives now.
     * A null {@code paramLabel} for an option without a value (a flag).
     */
    static <T> OptionSpec.Builder option(String name, String paramLabel, Class<T> type, Supplier<T> get, Consumer<T> set,
            String description) {
        Binding<T> binding = new Binding<>(get, set);
        OptionSpec.Builder option = OptionSpec.builder(name).type(type).description(HelpText.unbreakable(description))
                .getter(binding).setter(binding).initialValue(get.get());
        return paramLabel == null ? option : option.paramLabel(paramLabel);
    }

    /**
     * A repeatable option whose values, of {@code elementType}, collect in a list: picocli makes a
     * new list on the option's first match and hands it to {@code set}, then adds to it.
     */
    @SuppressWarnings("unchecked")
    static <E> OptionSpec.Builder listOption(String name, String paramLabel, Class<E> elementType, Supplier<List<E>> get,
            Consumer<List<E>> set, String description) {
        return option(name, paramLabel, (Class<List<E>>) (Class<?>) List.class, get, set, description).auxiliaryTypes(elementType);
    }

    /** Positional parameters whose values, of {@code elementType}, collect in a list (as {@link #listOption}). */
    @SuppressWarnings("unchecked")
    static <E> PositionalParamSpec.Builder listPositional(String paramLabel, Class<E> elementType, Supplier<List<E>> get,
            Consumer<List<E>> set, String description) {
        return positional(paramLabel, (Class<List<E>>) (Class<?>) List.class, get, set, description).auxiliaryTypes(elementType);
    }

    /** A positional parameter with a value of {@code type}, read and written through {@code get} and {@code set}. */
    static <T> PositionalParamSpec.Builder positional(String paramLabel, Class<T> type, Supplier<T> get, Consumer<T> set,
            String description) {
        Binding<T> binding = new Binding<>(get, set);
        return PositionalParamSpec.builder().paramLabel(paramLabel).type(type).description(HelpText.unbreakable(description))
                .getter(binding).setter(binding).initialValue(get.get());
    }

    /** A field's getter and setter, as picocli asks for them (generic methods, which lambdas cannot be). */
    private record Binding<T>(Supplier<T> getter, Consumer<T> setter) implements IGetter, ISetter {

        @Override
        @SuppressWarnings("unchecked")
        public <V> V get() {
            return (V) getter.get();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <V> V set(V value) {
            V old = (V) getter.get();
            setter.accept((T) value);
            return old;
        }
    }
}
