import Foundation
import MarqueeFleet
import MarqueeCore
import MarqueePlayer

extension PlaybackPlan {
    /// The file of the config in force: with `source:` the fetched one kept in the cache, else the
    /// config file (nil for media given on the command line). What the ledger's records and the
    /// saved position name by its digest.
    package var configFileInForce: String? {
        remote != nil ? (cache.resolvedDirectory() as NSString).appendingPathComponent("config/remote.yaml") : configPath
    }

    /// The plan with each cached item read from its verified copy, and the items whose download
    /// failed for good left out (of every daypart, with their windows). Items not cached (local
    /// files, streams) are as they were.
    package func readingCachedCopies(_ results: [URL: CacheFillResult]) -> PlaybackPlan {
        var plan = self
        func resolve(_ item: QueueItem) -> QueueItem? {
            guard let media = cachedMedia[item.url] else { return item }
            guard let path = results[media.url]?.path else { return nil }
            var item = item
            item.mediaPath = path
            return item
        }
        plan.items = items.compactMap(resolve)
        if var schedule = plan.schedule {
            for daypart in schedule.playlists.indices {
                let resolved = schedule.playlists[daypart].items.map(resolve)
                schedule.playlists[daypart].items = resolved.compactMap { $0 }
                let windows = schedule.timetable.dayparts[daypart].itemSchedules
                schedule.timetable.dayparts[daypart].itemSchedules = zip(resolved, windows).compactMap { $0 == nil ? nil : $1 }
            }
            plan.schedule = schedule
        }
        return plan
    }

    /// What the cache is asked for: each cached item once, in playlist order (the first item
    /// first, so playing can start soonest), with `security(url)`'s credentials and CA bundle.
    package func cacheWants(security: (URL) -> HTTPSecurity) -> [CacheWant] {
        var seen = Set<String>()
        let all = items + (schedule?.playlists.flatMap(\.items) ?? [])
        return all.compactMap { item in
            guard let media = cachedMedia[item.url], seen.insert(item.url).inserted else { return nil }
            return CacheWant(url: media.url, sha256: media.sha256, size: media.size, security: security(media.url))
        }
    }
}
