/// What `status` tells of the devices and services around the player: the output, the sound
/// device, the keypads, the media cache, the wall's clock and the other screens. Each is nil where
/// the run has none.
public struct DeviceStatus: Sendable, Equatable {
    public var output: StatusDocument.Output?
    public var audio: StatusDocument.Audio?
    public var input: StatusDocument.Input?
    public var cache: StatusDocument.CacheStatus?
    public var sync: StatusDocument.SyncStatus?
    public var screens: [StatusDocument.Screen]?

    public init(output: StatusDocument.Output? = nil, audio: StatusDocument.Audio? = nil, input: StatusDocument.Input? = nil) {
        self.output = output
        self.audio = audio
        self.input = input
    }
}

extension StatusDocument {
    /// `{"kind":"drm","display":"card0 HDMI-A-1 1920x1080@60",...}` or headless with its size.
    public struct Output: Codable, Sendable, Equatable {
        public var kind: String
        public var display: String?
        public var width: Int
        public var height: Int
        public var rotation: Int

        public init(kind: String, display: String?, size: PixelSize, rotation: Int) {
            self.kind = kind
            self.display = display
            self.width = size.width
            self.height = size.height
            self.rotation = rotation
        }
    }

    public struct Audio: Codable, Sendable, Equatable {
        public var device: String
        public init(device: String) { self.device = device }
    }

    public struct Input: Codable, Sendable, Equatable {
        public struct Device: Codable, Sendable, Equatable {
            public var path: String
            public var name: String
            public init(path: String, name: String) {
                self.path = path
                self.name = name
            }
        }

        public var devices: [Device]
        public init(devices: [Device]) { self.devices = devices }
    }

    /// The media cache: its folder and size, and the downloads of the playlist's remote items.
    public struct CacheStatus: Codable, Sendable, Equatable {
        public struct Download: Codable, Sendable, Equatable {
            public var url: String
            public var bytes: Int64
            public var total: Int64?
            public init(url: String, bytes: Int64, total: Int64?) {
                self.url = url
                self.bytes = bytes
                self.total = total
            }
        }

        public struct Failure: Codable, Sendable, Equatable {
            public var url: String
            public var error: String
            public init(url: String, error: String) {
                self.url = url
                self.error = error
            }
        }

        public var dir: String
        public var bytes: Int64
        public var maxBytes: Int64?
        public var wanted: Int
        public var cached: Int
        public var downloading: [Download]
        public var failed: [Failure]

        public init(dir: String, bytes: Int64, maxBytes: Int64?, wanted: Int, cached: Int, downloading: [Download], failed: [Failure]) {
            self.dir = dir
            self.bytes = bytes
            self.maxBytes = maxBytes
            self.wanted = wanted
            self.cached = cached
            self.downloading = downloading
            self.failed = failed
        }
    }

    /// `{"epoch":"2026-01-01T00:00:00Z","clock":{"synchronized":true,"estimatedErrorMicroseconds":12,...}}`
    public struct SyncStatus: Codable, Sendable, Equatable {
        public struct Clock: Codable, Sendable, Equatable {
            public var synchronized: Bool
            public var estimatedErrorMicroseconds: Int
            public var maximumErrorMicroseconds: Int
            public init(synchronized: Bool, estimatedErrorMicroseconds: Int, maximumErrorMicroseconds: Int) {
                self.synchronized = synchronized
                self.estimatedErrorMicroseconds = estimatedErrorMicroseconds
                self.maximumErrorMicroseconds = maximumErrorMicroseconds
            }
        }

        public var epoch: String
        public var clock: Clock?
        public init(epoch: String, clock: Clock?) {
            self.epoch = epoch
            self.clock = clock
        }
    }

    /// One screen of `displays:`: what it is, and what it plays or mirrors.
    public struct Screen: Codable, Sendable, Equatable {
        /// The player of a screen, briefly: `{"state":"playing","itemCount":3,"index":1,"url":"b.mp4"}`.
        public struct Playing: Codable, Sendable, Equatable {
            public var state: PlaybackState
            public var itemCount: Int
            public var index: Int?
            public var url: String?
            public init(_ playback: PlaybackStatus) {
                state = playback.state
                itemCount = playback.itemCount
                if let index = playback.itemIndex {
                    self.index = index
                    url = playback.itemURL
                }
            }
        }

        public var name: String
        public var connector: String
        public var kind: String
        public var width: Int
        public var height: Int
        public var display: String?
        /// A DRM screen's picture: `shown`, or why not (`unplugged`).
        public var picture: String?
        public var mirrors: String?
        public var playing: Playing?

        public init(name: String, connector: String, kind: String, size: PixelSize) {
            self.name = name
            self.connector = connector
            self.kind = kind
            self.width = size.width
            self.height = size.height
        }
    }
}
