// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Marquee",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "marquee", targets: ["marquee"]),
        .library(name: "MarqueeCore", targets: ["MarqueeCore"]),
        .library(name: "MarqueeConfig", targets: ["MarqueeConfig"]),
        .library(name: "MarqueeMedia", targets: ["MarqueeMedia"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // System libraries, found with pkg-config. Each shim header wraps what Swift cannot import.
        .systemLibrary(name: "CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev",
                                         "libswscale-dev", "libswresample-dev", "libavfilter-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        // The kernel interfaces several modules share (timerfd, eventfd, inotify, adjtimex, VT/KD
        // ioctls, netlink uevents): headers Swift's Glibc leaves out and wrappers for its macros.
        .systemLibrary(name: "CLinux"),
        // The kernel's HDMI-CEC uAPI: a header only (linux-libc-dev), no library and no pkg-config.
        .systemLibrary(name: "CCEC", providers: [.apt(["linux-libc-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),

        // Pure Swift: imports no C module.
        .target(name: "MarqueeCore", dependencies: ["CLinux"]),
        .target(name: "MarqueeConfig", dependencies: [
            "MarqueeCore",
            .product(name: "Yams", package: "Yams"),
        ]),
        // Backends: each imports its one C module, and no C type leaves it.
        .target(name: "MarqueeMedia", dependencies: ["MarqueeCore", "CFFmpeg"]),
        .target(name: "MarqueeDRM", dependencies: ["MarqueeCore", "CDRM", "CLinux"]),
        .target(name: "MarqueeEvdev", dependencies: ["MarqueeCore", "CEvdev", "CLinux"]),
        .target(name: "MarqueeALSA", dependencies: ["MarqueeCore", "CALSA"]),
        // HDMI-CEC through /dev/cecN (no libcec): the TV to standby and back, on a thread of its own.
        .target(name: "MarqueeCEC", dependencies: ["MarqueeCore", "CCEC"]),
        // MQTT through libmosquitto: a BrokerConnection on a network thread of its own; the control
        // vocabulary's topics over it are MarqueeControl's MQTTNode.
        .target(name: "MarqueeMQTT", dependencies: ["MarqueeCore", "CMosquitto"]),
        // Text: HarfBuzz shapes (it reads the font file itself), FreeType rasterises the glyph ids
        // HarfBuzz returns; neither module imports the other's C library (so no hb-ft.h).
        .target(name: "MarqueeHarfBuzz", dependencies: ["MarqueeCore", "CHarfBuzz"]),
        .target(name: "MarqueeFreeType", dependencies: ["MarqueeCore", "CFreeType"]),
        // FriBidi resolves the bidi levels of a title that mixes directions; HarfBuzz shapes each run.
        .target(name: "MarqueeFriBidi", dependencies: ["MarqueeCore", "CFriBidi"]),
        // HTTP(S) through libcurl: the blocking HTTPTransferring client the remote config and media cache use.
        .target(name: "MarqueeCurl", dependencies: ["MarqueeCore", "CCurl"]),
        // HTTP serving through libmicrohttpd: `GET /metrics` on a thread of the library's own.
        .target(name: "MarqueeHTTPServer", dependencies: ["MarqueeCore", "CMicroHTTPD"]),
        // Prometheus metrics: the player's events and the status folded into series, written in the
        // text exposition format by swift-prometheus; imports no C module and serves nothing itself.
        .target(name: "MarqueeMetrics", dependencies: [
            "MarqueeCore",
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        // The engine: drives any MediaOpening, VideoOutput and PlaybackClock; imports no C module.
        .target(name: "MarqueePlayer", dependencies: ["MarqueeCore"]),
        // The control transports (the socket, one JSON object per line; MQTT's topics over any
        // BrokerConnection) over a ControlledPlayer: imports neither the engine nor a C module.
        .target(name: "MarqueeControl", dependencies: ["MarqueeCore"]),
        // The media cache for fleet mode: verified, content-addressed files and the downloads that
        // fill it, over the HTTPTransferring and FileDigesting ports; imports no C module.
        .target(name: "MarqueeFleet", dependencies: ["MarqueeCore"]),
        // The play ledger: hash-chained JSON lines per UTC day, their check and the reports summed
        // from them, over the FileDigesting port; imports no C module.
        .target(name: "MarqueeLedger", dependencies: ["MarqueeCore"]),
        // The application layer of `marquee play`: the plan, reloads, the fleet, the wall, the control
        // endpoints and the session that wires them, over a Backends value of device factories;
        // imports no backend and no C module, so tests drive it in process with stand-ins.
        .target(name: "MarqueeSession", dependencies: [
            "MarqueeCore", "MarqueeConfig", "MarqueePlayer", "MarqueeControl", "MarqueeFleet", "MarqueeLedger", "MarqueeMetrics",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "marquee", dependencies: [
            "MarqueeSession",
            "MarqueeCore",
            "MarqueeConfig",
            "MarqueeMedia",
            "MarqueeDRM",
            "MarqueeEvdev",
            "MarqueeALSA",
            "MarqueeCEC",
            "MarqueePlayer",
            "MarqueeControl",
            "MarqueeFleet",
            "MarqueeLedger",
            "MarqueeMQTT",
            "MarqueeHarfBuzz",
            "MarqueeFreeType",
            "MarqueeFriBidi",
            "MarqueeCurl",
            "MarqueeHTTPServer",
            "CLinux",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        .testTarget(name: "MarqueeCoreTests", dependencies: ["MarqueeCore"]),
        .testTarget(name: "MarqueeConfigTests", dependencies: ["MarqueeConfig", "MarqueeCore"]),
        // Helpers more than one test target needs (a loopback HTTP server).
        .target(name: "MarqueeTestSupport", dependencies: ["MarqueeCore"], path: "Tests/MarqueeTestSupport"),
        .testTarget(name: "MarqueeMediaTests", dependencies: ["MarqueeMedia", "MarqueePlayer", "MarqueeCore", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeEvdevTests", dependencies: ["MarqueeEvdev", "MarqueeCore"]),
        // DRM decisions without a device (no /dev/dri here): plane choice and atomic requests.
        .testTarget(name: "MarqueeDRMTests", dependencies: ["MarqueeDRM", "MarqueeCore"]),
        // CEC messages, addresses and the choice of adapter without a device (vivid is tested in Deploy/vm/cec-test.sh).
        .testTarget(name: "MarqueeCECTests", dependencies: ["MarqueeCEC", "MarqueeCore"]),
        .testTarget(name: "MarqueePlayerTests", dependencies: ["MarqueePlayer", "MarqueeCore"]),
        // The libcurl client against real loopback HTTP and TLS servers (openssl s_server).
        .testTarget(name: "MarqueeCurlTests", dependencies: ["MarqueeCurl", "MarqueeCore", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeControlTests", dependencies: ["MarqueeControl", "MarqueePlayer", "MarqueeCore", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeALSATests", dependencies: ["MarqueeALSA", "MarqueePlayer", "MarqueeMedia", "MarqueeCore"]),
        // The cache against a loopback HTTP server (a test stand-in client) and libavutil's SHA-256.
        .testTarget(name: "MarqueeFleetTests", dependencies: ["MarqueeFleet", "MarqueeCore", "MarqueeMedia", "MarqueeTestSupport"]),
        // The application layer in process: plans, reloads, the fleet, the wall and the session over stand-in backends.
        // The series the events and status make, and the libmicrohttpd server asked over real HTTP (curl).
        .testTarget(name: "MarqueeMetricsTests", dependencies: ["MarqueeMetrics", "MarqueeHTTPServer", "MarqueeCore", "MarqueeCurl"]),
        .testTarget(name: "MarqueeSessionTests", dependencies: ["MarqueeSession", "MarqueeConfig", "MarqueePlayer", "MarqueeControl",
                                                               "MarqueeCore", "MarqueeMedia", "MarqueeCurl", "MarqueeTestSupport", "MarqueeLedger", "MarqueeHTTPServer",
                                                               .product(name: "Logging", package: "swift-log")]),
        // The ledger's files, chain and reports with libavutil's SHA-256; its upload through libcurl
        // to a loopback receiver that fails, hangs and repeats.
        .testTarget(name: "MarqueeLedgerTests", dependencies: ["MarqueeLedger", "MarqueeCore", "MarqueeMedia", "MarqueeCurl", "MarqueeMQTT",
                                                              "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeCLITests", dependencies: ["marquee", "MarqueeSession", "MarqueeControl", "MarqueeTestSupport"]),
        .testTarget(name: "MarqueeTextTests", dependencies: ["MarqueeHarfBuzz", "MarqueeFreeType", "MarqueeFriBidi", "MarqueeMedia", "MarqueePlayer", "MarqueeCore"]),
        // Not a test: prints how long blending an OSD-sized overlay into a 1080p buffer takes.
        .executableTarget(name: "overlay-blend-bench", dependencies: ["MarqueeCore"], path: "Sources/overlay-blend-bench"),
        .testTarget(name: "SystemLibraryTests", dependencies: ["CFFmpeg", "CDRM", "CALSA", "CEvdev", "CCEC", "CLinux", "MarqueeCore"]),
    ]
)
