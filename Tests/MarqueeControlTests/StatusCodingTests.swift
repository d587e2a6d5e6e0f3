import Foundation
import MarqueeCore
import MarqueeTestSupport
import Testing
@testable import MarqueeControl

/// The status is one document: what the socket and MQTT send is what `marquee ctl status` reads.
@Suite struct StatusCodingTests {
    static func full() -> StatusDocument {
        var status = StatusDocument.sample()
        status.schedule = StatusDocument.Schedule(daypart: nil, nextChange: "2026-11-26T14:00:00Z")
        var item = StatusDocument.Item(index: 1, url: "/media/b.mp4", positionLabel: "0:01", durationLabel: "0:03", remainingLabel: "-0:02",
                                       seekable: true, stillImage: false, playbackLikelyToKeepUp: true, playbackBufferEmpty: false,
                                       playbackBufferFull: true, loadedTimeRanges: [StatusDocument.TimeRange(from: .zero, to: MediaTime(seconds: 3))],
                                       seekableTimeRanges: [])
        item.position = 1.5
        item.naturalSize = PixelSize(width: 160, height: 90)
        status.item = item
        status.accessLog = [StatusDocument.AccessLogRecord(index: 0, url: "/media/a.mp4", startedAt: 0.25, endedAt: 3.25, finishReason: .playbackEnded,
                                                           stalls: 1, framesDropped: 2, bytesRead: 5_000_000_000, observedBitrate: 4000)]
        status.errorLog = [StatusDocument.ErrorLogRecord(t: 1, message: "error: /media/c.mp4: invalid data")]
        status.adopt(DeviceStatus(output: StatusDocument.Output(kind: "headless", display: nil, size: PixelSize(width: 160, height: 90), rotation: 90),
                                  audio: StatusDocument.Audio(device: "null"), input: StatusDocument.Input(devices: [])))
        status.cache = StatusDocument.CacheStatus(dir: "/var/cache/marquee", bytes: 10, maxBytes: nil, wanted: 2, cached: 1,
                                                  downloading: [StatusDocument.CacheStatus.Download(url: "http://h/b.mp4", bytes: 5, total: nil)],
                                                  failed: [])
        return status
    }

    @Test func theLineCarriesTheREADMEsNamesAndReadsBackTheSame() throws {
        let line = StatusCoding.line(Self.full())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        // The README's names: repeat (not repeatMode), a daypart of null written out, sizes as objects.
        #expect(object["repeat"] as? String == "all" && object["repeatMode"] == nil)
        #expect((object["schedule"] as? [String: Any])?["daypart"] is NSNull)
        #expect(((object["item"] as? [String: Any])?["naturalSize"] as? [String: Any])?["width"] as? Int == 160)
        #expect((object["accessLog"] as? [[String: Any]])?.first?["finishReason"] as? String == "playbackEnded")
        #expect(object["screens"] == nil && object["sync"] == nil, "parts the run has not are left out")
        #expect(try StatusCoding.document(line) == Self.full())
    }

    /// `marquee ctl status` reads the socket's reply, `ok` and `id` included.
    @Test func aReplyWithOkAndIdReadsAsTheDocument() throws {
        let reply = ControlReply.line(id: .integer(4), .success(StatusCoding.fields(Self.full())))
        #expect(reply.contains(#""ok":true"#) && reply.contains(#""id":4"#))
        #expect(try StatusCoding.document(reply) == Self.full())
    }
}
