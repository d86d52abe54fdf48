import assert from "node:assert/strict";
import { test } from "node:test";
import { clusterResourcesSchema, guestDisks, nodeGuestsSchema, parseTags } from "./proxmox-api.ts";

test("guest disks: volumes with their storage and format; CD-ROMs, empty drives and bind mounts are not disks", () => {
  assert.deepEqual(
    guestDisks("lxc", {
      hostname: "gitea",
      rootfs: "local-zfs:subvol-101-disk-0,size=8G",
      mp0: "local-lvm:vm-101-disk-1,mp=/srv,size=32G",
      mp1: "/mnt/tank/media,mp=/media",
      memory: 1024,
    }),
    [
      { key: "mp0", storage: "local-lvm", volume: "vm-101-disk-1", format: "other" },
      { key: "rootfs", storage: "local-zfs", volume: "subvol-101-disk-0", format: "subvol" },
    ],
  );
  assert.deepEqual(
    guestDisks("qemu", {
      scsi0: "nfs:200/vm-200-disk-0.qcow2,size=64G",
      virtio1: "ceph:vm-200-disk-1,format=raw",
      ide2: "local:iso/win11.iso,media=cdrom",
      sata1: "none,media=cdrom",
      efidisk0: "local-lvm:vm-200-disk-2,efitype=4m",
      net0: "virtio=BC:24:11:00:00:01,bridge=vmbr0",
    }),
    [
      { key: "efidisk0", storage: "local-lvm", volume: "vm-200-disk-2", format: "other" },
      { key: "scsi0", storage: "nfs", volume: "200/vm-200-disk-0.qcow2", format: "qcow2" },
      { key: "virtio1", storage: "ceph", volume: "vm-200-disk-1", format: "raw" },
    ],
  );
});

test("API shapes: lxc lists give vmid as a string, resources mix types; tags split on ; , and space", () => {
  assert.deepEqual(nodeGuestsSchema.parse([{ vmid: "101", name: "gitea", status: "running" }])[0]?.vmid, 101);
  const resources = clusterResourcesSchema.parse([
    { id: "lxc/101", type: "lxc", vmid: 101, node: "pve1", template: 0 },
    {
      id: "storage/pve1/local",
      type: "storage",
      node: "pve1",
      storage: "local",
      plugintype: "dir",
      shared: 0,
    },
    { id: "sdn/pve1/localnetwork", type: "sdn", node: "pve1", sdn: "localnetwork" },
  ]);
  assert.equal(resources.length, 3);
  assert.deepEqual(parseTags("prod;web, db"), ["db", "prod", "web"]);
  assert.deepEqual(parseTags(undefined), []);
});
