import PaymentsCore

/// A seeded random dataset in CSV text, with bad rows of every kind, for properties that must hold
/// on any input (row order, number of tasks, chunk size).
struct RandomDataset {
    var users: [String] = []
    var meals: [String] = []
    var steps: [String] = []
    var payments: [String] = []

    init(seed: UInt64, users userCount: Int = 60, rowsPerUser: Int = 30) {
        var random = SplitMix64(seed: seed)
        let protocols = ["16:8", "18:6", "20:4", "omad", "none"]
        let offsets = [-720, -210, 0, 60, 330, 345, 840]
        let base: Int64 = 1_767_225_600
        for u in 0..<userCount {
            users.append("u\(pad(u)),\(offsets.randomElement(using: &random)!),\(protocols.randomElement(using: &random)!),female,30,60.0,165.0,light")
        }
        func user(_ random: inout SplitMix64) -> String {
            Int.random(in: 0..<50, using: &random) == 0 ? "u9999999" : "u\(pad(Int.random(in: 0..<userCount, using: &random)))"
        }
        for i in 0..<(userCount * rowsPerUser) {
            let start = base + Int64.random(in: 0..<(10 * 86_400), using: &random)
            let length = Int64.random(in: -60...15_000, using: &random)
            let kcal = Int.random(in: -5...900, using: &random)
            meals.append("m\(pad(i)),\(user(&random)),\(start),\(start + length),lunch,\(kcal).5,10,20,5")
            if Int.random(in: 0..<40, using: &random) == 0 { meals.append(meals.randomElement(using: &random)!) }
        }
        for i in 0..<(userCount * rowsPerUser) {
            let start = base + Int64.random(in: 0..<(10 * 86_400), using: &random)
            let length = Int64.random(in: -10...9_000, using: &random)
            let source = Bool.random(using: &random) ? "watch" : "phone"
            steps.append("s\(pad(i)),\(user(&random)),\(source),\(start),\(start + length),\(Int.random(in: -2...3000, using: &random)).25")
            if Int.random(in: 0..<40, using: &random) == 0 { steps.append(steps.randomElement(using: &random)!) }
        }
        let scripts = ["A", "D", "T", "L", "T;A", "L;D", "T;L;D", "T;T;T", "T;T;A"]
        let currencies = ["USD", "JPY", "KWD", "EUR", "XXX"]
        for i in 0..<(userCount * rowsPerUser / 3) {
            let owner = user(&random)
            let key = "k\(Int.random(in: 0..<(userCount * rowsPerUser / 4), using: &random))"
            let refund = Int.random(in: 0..<3, using: &random) == 0
            let target = refund ? "p\(pad(Int.random(in: 0..<max(1, i), using: &random)))" : ""
            let amount = Int.random(in: -10...5_000, using: &random)
            payments.append(
                "p\(pad(i)),\(key),\(owner),\(refund ? "refund" : "charge"),\(amount),\(currencies.randomElement(using: &random)!)," +
                    "\(base + Int64.random(in: 0..<86_400, using: &random)),\(target),\(scripts.randomElement(using: &random)!)"
            )
        }
    }

    private func pad(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 7 - s.count)) + s
    }

    /// The files as CSV text, rows shuffled when a seed is given (duplicate ids are exact copies,
    /// so which comes first does not matter).
    func csv(shuffledWith seed: UInt64? = nil) -> [String: String] {
        var random = SplitMix64(seed: seed ?? 0)
        let shuffled = seed != nil
        func text(_ header: String, _ rows: [String]) -> String {
            var ordered = rows
            if shuffled { ordered.shuffle(using: &random) }
            return ([header] + ordered).joined(separator: "\n") + "\n"
        }
        return [
            "users.csv": text("user_id,utc_offset_minutes,protocol,sex,age,weight_kg,height_cm,activity", users),
            "meals.csv": text("meal_id,user_id,start,end,type,kcal,protein_g,carbs_g,fat_g", meals),
            "steps.csv": text("sample_id,user_id,source,start,end,count", steps),
            "payments.csv": text(
                "payment_id,idempotency_key,user_id,kind,amount_minor,currency,created_at,refund_of,gateway", payments
            ),
        ]
    }
}
