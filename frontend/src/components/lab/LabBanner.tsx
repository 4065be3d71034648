import { useLab } from "../../api/lab";

/** Whether the network-namespace lab is up, and if not, why (e.g. not root). */
export default function LabBanner() {
  const lab = useLab();
  if (!lab.data) return null;
  const { present, reason, queues, services } = lab.data;
  if (!present) {
    return (
      <p className="banner warn" data-testid="lab-banner">
        Lab not available: {reason ?? "unknown reason"}. The lab is a network namespace with DNS, nginx, iperf3 and devsim
        targets tagged <span className="tag">lab</span>; <code>make up</code> run as root sets it up.
      </p>
    );
  }
  const running = services.filter((s) => s.running).map((s) => String(s.name));
  return (
    <p className="banner ok" data-testid="lab-banner">
      Lab up: veth with {queues ?? "?"} queue(s); {running.length ? running.join(", ") : "no service"} running (targets tagged{" "}
      <span className="tag">lab</span>).
    </p>
  );
}
