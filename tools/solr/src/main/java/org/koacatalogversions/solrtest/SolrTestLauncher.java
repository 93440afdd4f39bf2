/*
 * Starts, on 127.0.0.1, the Solr the test suites run against (docs/testing.md): a standalone Solr whose
 * home holds the given configsets (cores are made from them through the CoreAdmin API) and a SolrCloud of
 * --cloud-nodes nodes (default 1; tools/solr/start.sh asks for 2) with embedded ZooKeeper, the same
 * configsets uploaded (collections of two shards, one replica each, are made from them through the
 * Collections API; Solr spreads the shards over the nodes). It makes one core and one collection named
 * "biblio" from the configset named first. When both answer it writes their base URLs (and every node's)
 * to the file given with --out and prints READY; it stops both, deleting DIR, on SIGTERM, on Ctrl-C, and
 * (with --stop-on-stdin-close) when stdin closes.
 *
 * A test that stops a node starts a small launcher of its own (test/support/ownSolrCloud.ts), never
 * stopping the shared one's: --cloud-only starts the SolrCloud alone (no standalone Solr, no "biblio"), and
 * --control-stdin reads commands from stdin, one a line, answering each with one line on stdout:
 *   stop-node N   stops node N (0-based, in SOLR_CLOUD_NODE_BASES' order) and waits until ZooKeeper no
 *                 longer lists it as live; answers "CONTROL stopped-node N"
 *   start-node N  starts it again on the same port and waits until it is live; answers "CONTROL started-node N"
 * A command that fails answers "CONTROL error <command>: <why>". The end of stdin stops everything, as
 * --stop-on-stdin-close does.
 *
 * Usage: java -cp ... SolrTestLauncher --work DIR --out FILE [--configset NAME=DIR]... [--cloud-nodes N]
 *          [--cloud-only] [--stop-on-stdin-close | --control-stdin]
 * where each configset DIR holds conf/solrconfig.xml and conf/managed-schema.xml (or schema.xml).
 * Building and starting it is tools/solr/start.sh's business.
 */
package org.koacatalogversions.solrtest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

public final class SolrTestLauncher {
  private static final String SOLR_XML = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<solr/>\n";

  private SolrTestLauncher() {}

  public static void main(String[] args) throws Exception {
    Path work = null;
    Path out = null;
    boolean stopOnStdinClose = false;
    boolean controlStdin = false;
    boolean cloudOnly = false;
    int cloudNodes = 1;
    Map<String, Path> configsets = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--work" -> work = Path.of(args[++i]).toAbsolutePath();
        case "--out" -> out = Path.of(args[++i]).toAbsolutePath();
        case "--stop-on-stdin-close" -> stopOnStdinClose = true;
        case "--control-stdin" -> controlStdin = true;
        case "--cloud-only" -> cloudOnly = true;
        case "--cloud-nodes" -> cloudNodes = Integer.parseInt(args[++i]);
        case "--configset" -> {
          String[] pair = args[++i].split("=", 2);
          if (pair.length != 2) throw new IllegalArgumentException("--configset wants NAME=DIR, not " + args[i]);
          configsets.put(pair[0], Path.of(pair[1]).toAbsolutePath());
        }
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (work == null || out == null || configsets.isEmpty()) {
      throw new IllegalArgumentException("usage: --work DIR --out FILE --configset NAME=DIR [--configset ...] [--cloud-nodes N] [--cloud-only] [--stop-on-stdin-close | --control-stdin]");
    }
    String first = configsets.keySet().iterator().next();
    long started = System.nanoTime();

    // Standalone: a solr home with the configsets under configsets/ (Solr's default configSetBaseDir).
    JettySolrRunner standalone = null;
    if (!cloudOnly) {
      Path home = work.resolve("standalone");
      Files.createDirectories(home);
      Files.writeString(home.resolve("solr.xml"), SOLR_XML);
      for (Map.Entry<String, Path> set : configsets.entrySet()) {
        copyTree(set.getValue().resolve("conf"), home.resolve("configsets").resolve(set.getKey()).resolve("conf"));
      }
      standalone = new JettySolrRunner(home.toString(), JettyConfig.builder().setPort(0).build());
    }

    // SolrCloud: one node by default (two shards on one node keep the memory low), embedded ZooKeeper;
    // two nodes for the tests of replicas on other nodes (test/adapters/solr/workCollection.test.ts).
    if (cloudNodes < 1) throw new IllegalArgumentException("--cloud-nodes wants 1 or more, not " + cloudNodes);
    MiniSolrCloudCluster.Builder builder = new MiniSolrCloudCluster.Builder(cloudNodes, work.resolve("cloud"));
    for (Map.Entry<String, Path> set : configsets.entrySet()) builder.addConfig(set.getKey(), set.getValue().resolve("conf"));

    Path workDir = work;
    List<AutoCloseable> toStop = new ArrayList<>();
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      for (int i = toStop.size() - 1; i >= 0; i--) {
        try {
          toStop.get(i).close();
        } catch (Exception e) {
          System.err.println("stopping: " + e);
        }
      }
      // The cores' data lives only as long as the launcher.
      deleteTree(workDir);
      stop.countDown();
    }));

    String standaloneBase = null;
    if (standalone != null) {
      standalone.start();
      toStop.add(standalone::stop);
      standaloneBase = "http://127.0.0.1:" + standalone.getLocalPort() + "/solr";
    }
    MiniSolrCloudCluster cloud = builder.build();
    toStop.add(cloud::shutdown);
    // The nodes as started: MiniSolrCloudCluster drops a stopped node from its own list, so commands name them here.
    List<JettySolrRunner> nodes = List.copyOf(cloud.getJettySolrRunners());
    String cloudBase = "http://127.0.0.1:" + nodes.get(0).getLocalPort() + "/solr";

    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    if (standaloneBase != null) {
      ask(http, standaloneBase + "/admin/cores?action=CREATE&name=biblio&configSet=" + first + "&wt=json");
      ask(http, cloudBase + "/admin/collections?action=CREATE&name=biblio&numShards=2&replicationFactor=1"
          + "&collection.configName=" + first + "&waitForFinalState=true&wt=json");
      ask(http, standaloneBase + "/biblio/select?q=*:*&rows=0&wt=json");
      ask(http, cloudBase + "/biblio/select?q=*:*&rows=0&wt=json");
    } else {
      ask(http, cloudBase + "/admin/collections?action=LIST&wt=json");
    }

    List<String> nodeBases = new ArrayList<>();
    for (JettySolrRunner node : nodes) nodeBases.add("http://127.0.0.1:" + node.getLocalPort() + "/solr");
    String facts = (standaloneBase == null ? "" : "SOLR_STANDALONE_BASE=" + standaloneBase + "\n")
        + "SOLR_CLOUD_BASE=" + cloudBase + "\n"
        + "SOLR_CLOUD_NODE_BASES=" + String.join(",", nodeBases) + "\n"
        + "SOLR_ZK_HOST=" + cloud.getZkServer().getZkAddress() + "\n"
        + "SOLR_CONFIGSETS=" + String.join(",", configsets.keySet()) + "\n";
    Path partial = out.resolveSibling(out.getFileName() + ".part");
    Files.writeString(partial, facts);
    Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    System.out.println("READY in " + (System.nanoTime() - started) / 1_000_000 + " ms");
    System.out.print(facts);
    System.out.flush();

    if (controlStdin) {
      Thread control = new Thread(() -> controlFromStdin(cloud, nodes), "stdin-control");
      control.setDaemon(true);
      control.start();
    } else if (stopOnStdinClose) {
      Thread watcher = new Thread(() -> {
        try (InputStream in = System.in) {
          while (in.read() >= 0) {
            // Anything written is ignored; only the end of the stream counts.
          }
        } catch (IOException ignored) {
          // A broken stdin is a closed one.
        }
        System.exit(0);
      }, "stdin-watch");
      watcher.setDaemon(true);
      watcher.start();
    }
    stop.await();
  }

  private static final Pattern NODE_COMMAND = Pattern.compile("(stop|start)-node (\\d+)");

  /** Runs the commands of stdin (see the header) until it closes, then exits (the shutdown hook stops everything). */
  private static void controlFromStdin(MiniSolrCloudCluster cloud, List<JettySolrRunner> nodes) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        String command = line.trim();
        if (command.isEmpty()) continue;
        String answer;
        try {
          Matcher matcher = NODE_COMMAND.matcher(command);
          if (!matcher.matches()) throw new IllegalArgumentException("unknown command (stop-node N, start-node N)");
          int index = Integer.parseInt(matcher.group(2));
          if (index >= nodes.size()) throw new IllegalArgumentException("there are nodes 0 to " + (nodes.size() - 1));
          JettySolrRunner node = nodes.get(index);
          if (matcher.group(1).equals("stop")) {
            if (!node.isRunning()) throw new IllegalStateException("node " + index + " is stopped already");
            cloud.stopJettySolrRunner(node);
            cloud.waitForJettyToStop(node);
            answer = "stopped-node " + index;
          } else {
            if (node.isRunning()) throw new IllegalStateException("node " + index + " is running already");
            cloud.startJettySolrRunner(node);
            cloud.waitForNode(node, 120);
            answer = "started-node " + index;
          }
        } catch (Exception e) {
          answer = "error " + command + ": " + String.valueOf(e.getMessage()).replace('\n', ' ');
        }
        System.out.println("CONTROL " + answer);
        System.out.flush();
      }
    } catch (IOException ignored) {
      // A broken stdin is a closed one.
    }
    System.exit(0);
  }

  /** Sends a GET and fails unless Solr answers 200 (the body is in the message). */
  private static void ask(HttpClient http, String url) throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(120)).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    if (response.statusCode() != 200) throw new IOException(url + " answered " + response.statusCode() + ": " + response.body());
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) Files.deleteIfExists(path);
    } catch (IOException e) {
      System.err.println("could not delete " + root + ": " + e);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) Files.createDirectories(target);
        else Files.copy(path, target, StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
