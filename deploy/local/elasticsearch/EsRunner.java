// Starts one Elasticsearch node in this JVM for local development and tests
// of cairn (see deploy/local/README.md). Compiled and launched by
// deploy/local/start.sh; it is not part of the service itself.
//
// Configuration comes from system properties (all set by start.sh):
//   cairn.es.basePath       directory for config, data and logs (required)
//   cairn.es.httpPort       HTTP port (default 9200)
//   cairn.es.transportPort  transport port (default 9300)
//   cairn.es.host           bind/publish address (default 127.0.0.1)
//   cairn.es.clusterName    cluster name (default cairn-local)
//
// The process runs until it receives SIGTERM/SIGINT; a shutdown hook then
// closes the node so that its data directory is left consistent.

import static org.codelibs.elasticsearch.runner.ElasticsearchClusterRunner.newConfigs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CountDownLatch;

import org.codelibs.elasticsearch.runner.ElasticsearchClusterRunner;

public final class EsRunner {

    private static final String LOG_CONFIG = String.join("\n",
            "status = error",
            "appender.console.type = Console",
            "appender.console.name = console",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] %m%n",
            "rootLogger.level = info",
            "rootLogger.appenderRef.console.ref = console",
            "logger.deprecation.name = org.elasticsearch.deprecation",
            "logger.deprecation.level = error",
            "");

    private EsRunner() {
    }

    private static String prop(final String name, final String fallback) {
        final String value = System.getProperty(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    public static void main(final String[] args) throws Exception {
        final String basePath = prop("cairn.es.basePath", null);
        if (basePath == null) {
            System.err.println("EsRunner: -Dcairn.es.basePath=<dir> is required");
            System.exit(2);
        }
        final int httpPort = Integer.parseInt(prop("cairn.es.httpPort", "9200"));
        final int transportPort = Integer.parseInt(prop("cairn.es.transportPort", "9300"));
        final String host = prop("cairn.es.host", "127.0.0.1");
        final String clusterName = prop("cairn.es.clusterName", "cairn-local");

        // The runner only writes its own (verbose, debug-level) logging config
        // when none exists; provide a plain console one so that everything
        // ends up in the log file start.sh redirects stdout to.
        final Path confDir = Paths.get(basePath, "node_1", "config");
        Files.createDirectories(confDir);
        final Path logConfig = confDir.resolve("log4j2.properties");
        Files.write(logConfig, LOG_CONFIG.getBytes(StandardCharsets.UTF_8));
        // Also use it for the few log lines emitted before Elasticsearch
        // configures logging itself (no "no configuration found" noise).
        System.setProperty("log4j.configurationFile", logConfig.toAbsolutePath().toString());

        final ElasticsearchClusterRunner runner = new ElasticsearchClusterRunner();
        // Use exactly the configured port instead of probing for a free one.
        runner.setMaxHttpPort(-1);
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("EsRunner: shutting down");
            try {
                runner.close();
            } catch (final IOException e) {
                System.err.println("EsRunner: close failed: " + e);
            } finally {
                stopped.countDown();
            }
        }, "cairn-es-shutdown"));

        try {
            start(runner, basePath, httpPort, transportPort, host, clusterName);
        } catch (final RuntimeException e) {
            // Node threads would otherwise keep a half-started JVM alive.
            System.err.println("EsRunner: startup failed");
            e.printStackTrace();
            System.exit(1);
        }
        System.out.println("EsRunner: node started, cluster '" + clusterName + "' on http://" + host + ":" + httpPort);
        stopped.await();
    }

    private static void start(final ElasticsearchClusterRunner runner, final String basePath, final int httpPort,
            final int transportPort, final String host, final String clusterName) {
        runner.onBuild((index, settings) -> {
            settings.put("http.port", String.valueOf(httpPort));
            settings.put("transport.port", String.valueOf(transportPort));
            settings.put("network.host", host);
            settings.put("discovery.type", "single-node");
            settings.put("node.name", "cairn-local-1");
            // A developer machine's disk can be fuller than ES's watermarks
            // allow; do not turn indices read-only because of that.
            settings.put("cluster.routing.allocation.disk.threshold_enabled", false);
            settings.put("bootstrap.memory_lock", false);
            settings.put("action.auto_create_index", true);
        }).build(newConfigs()
                .basePath(basePath)
                .numOfNode(1)
                .baseHttpPort(httpPort - 1)
                .clusterName(clusterName)
                .printOnFailure());

        runner.ensureYellow();
    }
}
