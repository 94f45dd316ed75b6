// Health and smoke check for the local Kafka broker started by
// deploy/local/start.sh (see deploy/local/README.md). Compiled by
// provision.sh against the same jars the broker runs with.
//
// Usage: java -cp <kafka jars>:<classes> KafkaHealth <bootstrap> [check|smoke]
//   check  one metadata round trip: cluster id, controller, broker count, topic count
//   smoke  check, then create a topic, produce one record, consume it back,
//          and delete the topic again
// Exit status 0 on success, 1 on failure (with the reason on stderr).

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

public final class KafkaHealth {

    private static final long TIMEOUT_MS = 10_000;

    private KafkaHealth() {
    }

    public static void main(final String[] args) {
        final String bootstrap = args.length > 0 ? args[0] : "127.0.0.1:9092";
        final String mode = args.length > 1 ? args[1] : "check";
        try {
            if (!"check".equals(mode) && !"smoke".equals(mode)) {
                throw new IllegalArgumentException("unknown mode '" + mode + "' (expected check or smoke)");
            }
            check(bootstrap);
            if ("smoke".equals(mode)) {
                smoke(bootstrap);
            }
            System.exit(0);
        } catch (final Exception e) {
            Throwable cause = e;
            while (cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            System.err.println("kafka health: FAILED against " + bootstrap + ": " + cause);
            System.exit(1);
        }
    }

    private static Properties adminProps(final String bootstrap) {
        final Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "cairn-local-health");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
        props.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, "200");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "1000");
        return props;
    }

    private static void check(final String bootstrap) throws Exception {
        try (Admin admin = Admin.create(adminProps(bootstrap))) {
            final DescribeClusterResult cluster = admin.describeCluster();
            final String clusterId = cluster.clusterId().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final Collection<Node> nodes = cluster.nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final Node controller = cluster.controller().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final Set<String> topics = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            if (nodes.isEmpty()) {
                throw new IllegalStateException("cluster reports no brokers");
            }
            System.out.println("kafka ok: cluster=" + clusterId + " brokers=" + nodes.size()
                    + " controller=" + (controller == null ? "none" : controller.id())
                    + " topics=" + topics.size());
        }
    }

    private static void smoke(final String bootstrap) throws Exception {
        final String topic = "cairn-local-smoke-" + UUID.randomUUID();
        final String value = "hello from cairn " + System.nanoTime();
        try (Admin admin = Admin.create(adminProps(bootstrap))) {
            admin.createTopics(Collections.singleton(new NewTopic(topic, 1, (short) 1)))
                    .all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            try {
                final Properties producerProps = new Properties();
                producerProps.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
                producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
                producerProps.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(TIMEOUT_MS));
                producerProps.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(TIMEOUT_MS));
                producerProps.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
                try (KafkaProducer<String, String> producer =
                        new KafkaProducer<>(producerProps, new StringSerializer(), new StringSerializer())) {
                    final RecordMetadata meta = producer.send(new ProducerRecord<>(topic, "key", value))
                            .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    System.out.println("kafka smoke: produced to " + meta.topic() + "-" + meta.partition()
                            + "@" + meta.offset());
                }

                final Properties consumerProps = new Properties();
                consumerProps.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
                consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "cairn-local-smoke");
                consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
                consumerProps.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "true");
                try (KafkaConsumer<String, String> consumer =
                        new KafkaConsumer<>(consumerProps, new StringDeserializer(), new StringDeserializer())) {
                    consumer.subscribe(Collections.singleton(topic));
                    final long deadline = System.currentTimeMillis() + 30_000;
                    boolean found = false;
                    while (!found && System.currentTimeMillis() < deadline) {
                        final ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(500));
                        for (final ConsumerRecord<String, String> record : records) {
                            if (value.equals(record.value())) {
                                found = true;
                            }
                        }
                    }
                    if (!found) {
                        throw new IllegalStateException("produced record was not consumed within 30 s");
                    }
                    consumer.commitSync(Duration.ofMillis(TIMEOUT_MS));
                    System.out.println("kafka smoke: consumed the record back through consumer group cairn-local-smoke");
                }
            } finally {
                admin.deleteTopics(Collections.singleton(topic)).all().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
        }
        System.out.println("kafka smoke: ok");
    }
}
